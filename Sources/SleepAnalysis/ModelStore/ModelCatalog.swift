import Foundation

/// The models this build of the library uses, and which features need each. Slim mode downloads only the
/// models the licence's features need.
struct ModelCatalog: Sendable, Hashable {
    /// The models, in download order.
    let entries: [ModelCatalogEntry]

    /// The library's models: the sound-event classifier, its version for band-limited audio, and the sleep-stage
    /// model.
    static let standard = ModelCatalog(entries: [
        ModelCatalogEntry(
            name: "events", fileName: "events.bin",
            requiredBy: ["audioEvents", "snoringDetection", "extendedAudioEvents"]),
        ModelCatalogEntry(
            name: "events-band-limited", fileName: "events-band-limited.bin",
            requiredBy: ["audioEvents", "snoringDetection", "extendedAudioEvents"]),
        ModelCatalogEntry(
            name: "staging", fileName: "staging.json",
            requiredBy: ["sleepStaging", "realTimeSleepStaging", "smartAlarm"]),
    ])

    /// The entry called `name`, if this build has one.
    func entry(named name: String) -> ModelCatalogEntry? { entries.first { $0.name == name } }

    /// The models the enabled features need, in catalog order.
    ///
    /// - Parameter features: The licence's features.
    /// - Returns: The needed entries (none when no enabled feature needs a model).
    func models(neededFor features: SleepAnalysisFeatures) -> [ModelCatalogEntry] {
        let enabled = Set(features.enabledNames)
        return entries.filter { !$0.requiredBy.isDisjoint(with: enabled) }
    }
}

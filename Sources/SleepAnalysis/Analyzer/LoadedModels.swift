import Foundation

/// The models the licence's features need, loaded once at `initialize` and shared by every session.
struct LoadedModels: Sendable {
    /// The sound-event classifier, when an events feature is licensed.
    let events: EventClassifierModel?
    /// The sound-event classifier for band-limited audio, loaded with `events`.
    let bandLimitedEvents: EventClassifierModel?
    /// The sleep-stage model, when staging (or the smart alarm, which needs real-time stages) is licensed.
    let staging: StagingModel?

    /// Loads the provisioned models that `features` need.
    ///
    /// - Throws: `.modelNotProvisioned`, `.modelUnavailable` or `.modelIntegrityCheckFailed` from the loaders.
    init(provisioned: ProvisionedModels, features: SleepAnalysisFeatures) throws {
        let needsEvents = features.audioEvents || features.snoringDetection || features.extendedAudioEvents
        events = needsEvents ? try EventClassifierModel.load(from: provisioned.url(for: "events")) : nil
        bandLimitedEvents =
            needsEvents
            ? try EventClassifierModel.load(from: provisioned.url(for: EventClassifierModel.bandLimitedName)) : nil
        let needsStaging = features.sleepStaging || features.realTimeSleepStaging || features.smartAlarm
        staging = needsStaging ? try StagingModel.load(from: provisioned.url(for: "staging")) : nil
    }
}

import Foundation

/// One model the library uses: its name, its file name inside `Models/` (and on a model store), and the
/// features that need it.
struct ModelCatalogEntry: Sendable, Hashable {
    /// The model's name, as manifests and errors call it (e.g. `events`).
    let name: String
    /// The file name inside the bundled `Models/` folder (e.g. `events.bin`).
    let fileName: String
    /// The feature names (`SleepAnalysisFeatures.featureNames`) that need this model.
    let requiredBy: Set<String>
}

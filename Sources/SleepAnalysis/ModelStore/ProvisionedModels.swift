import Foundation

/// The model files that are ready on this machine after `initialize`, by model name. Engines ask it for their
/// model's file instead of looking in the bundle themselves, so the bundled and slim products load alike.
struct ProvisionedModels: Sendable, Hashable {
    /// The catalog the names belong to.
    let catalog: ModelCatalog
    /// Ready files by model name.
    let files: [String: URL]

    /// Nothing provisioned yet (before `initialize`, or after `clear()`).
    static func none(catalog: ModelCatalog = .standard) -> ProvisionedModels {
        ProvisionedModels(catalog: catalog, files: [:])
    }

    /// The file of the model called `name`.
    ///
    /// - Parameter name: The model's name (e.g. `events`).
    /// - Returns: A local file URL.
    /// - Throws: `SleepCycleSdkError.modelUnavailable` if this build has no such model;
    ///   `.modelNotProvisioned` if it has not been provisioned (not initialised, or not licensed).
    func url(for name: String) throws -> URL {
        guard catalog.entry(named: name) != nil else { throw SleepCycleSdkError.modelUnavailable(name) }
        guard let url = files[name] else { throw SleepCycleSdkError.modelNotProvisioned(name) }
        return url
    }
}

import Foundation

/// What `initialize` set up for one analyzer, used by every later call.
struct AnalyzerContext: Sendable {
    /// The verified licence.
    let license: License
    /// Where files go.
    let locations: StorageLocations
    /// The analyzer's logger.
    let logger: SDKLogger
    /// Telemetry, as configured.
    let telemetry: TelemetryReporter
    /// The models, loaded once.
    let models: LoadedModels
    /// Where they came from (for `clear()`).
    let provisioner: ModelProvisioner
    /// The journal of active sessions.
    let journal: SessionJournal
    /// The damaged journal `initialize` renamed aside, if it found one.
    let quarantinedJournal: QuarantinedFile?
    /// Holds the storage directory for this analyzer alone until it is deinitialized.
    let directoryLock: StorageDirectoryLock

    /// The licence's features.
    var features: SleepAnalysisFeatures { license.features }
}

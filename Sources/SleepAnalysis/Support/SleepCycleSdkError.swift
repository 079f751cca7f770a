import Foundation

/// Every error the SDK throws. Each case carries a message a user can act on; failures that come from a lower
/// layer (SQLite, the operating system, the DSP core, a server) also carry its code as a typed ``Cause``
/// (``cause``, ``isTransient``).
public enum SleepCycleSdkError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// A call needs `initialize(...)` first.
    case notInitialized
    /// The API key is malformed, tampered with, expired or from an untrusted issuer.
    case invalidApiKey(String)
    /// The licence does not grant a feature the call needs (the feature's name).
    case featureNotEnabled(String)
    /// A session or data source is already running.
    case analysisAlreadyRunning
    /// No session is active (on that channel, or with that id).
    case analysisNotActive
    /// A configuration value is out of range or contradictory.
    case invalidConfiguration(String)
    /// A data source could not be opened or read (the reason's ``Reason/cause``, e.g. ``Cause/outOfMemory``,
    /// when known).
    case dataSourceFailure(Reason)
    /// Input data is malformed (file, line and reason in the message).
    case invalidInput(Reason)
    /// Persistent state (session journal, session store, token cache) could not be read or written (the
    /// reason's ``Reason/cause``: the SQLite result code or `errno`, when known).
    case storageFailure(Reason)
    /// A required model has no download location.
    case resourceUnavailable(String)
    /// A model download failed; calling `initialize` again resumes it (the reason's ``Reason/cause``: the HTTP
    /// status, when the server answered).
    case resourceDownloadFailed(Reason)
    /// A model the analysis needs has not been downloaded.
    case modelNotProvisioned(String)
    /// A downloaded model is incomplete or corrupt.
    case modelIntegrityCheckFailed(String)
    /// The model is not part of this build, or its file cannot be read (the name and the reason in the message).
    case modelUnavailable(String)
    /// No session can be resumed.
    case noResumableSession
    /// The call's time range holds no data (a stop before the session's start, a start after the recording's
    /// end): the message says which times. Nothing was analysed, so no result is made.
    case emptyTimeRange(String)

    /// A message for logs and users.
    public var description: String {
        switch self {
        case .notInitialized: "The analyzer is not initialized: call initialize(...) first."
        case .invalidApiKey(let why): "The API key was rejected: \(why)"
        case .featureNotEnabled(let feature): "The licence does not include the feature '\(feature)'."
        case .analysisAlreadyRunning: "An analysis or data source is already running: stop it first."
        case .analysisNotActive: "No analysis session is active for this call."
        case .invalidConfiguration(let why): "Invalid configuration: \(why)"
        case .dataSourceFailure(let why): "Data source failure: \(why)"
        case .invalidInput(let why): "Invalid input: \(why)"
        case .storageFailure(let why): "Storage failure: \(why)"
        case .resourceUnavailable(let name): "No download location for the model '\(name)'."
        case .resourceDownloadFailed(let why): "Model download failed: \(why)"
        case .modelNotProvisioned(let name): "The model '\(name)' has not been downloaded."
        case .modelIntegrityCheckFailed(let name): "The model '\(name)' is incomplete or corrupt."
        case .modelUnavailable(let name): "The model is unavailable: \(name)"
        case .noResumableSession: "There is no session to resume."
        case .emptyTimeRange(let why): "The time range holds no data: \(why)"
        }
    }

    /// The message a person needs (`localizedDescription` gives the same).
    public var errorDescription: String? { description }
}

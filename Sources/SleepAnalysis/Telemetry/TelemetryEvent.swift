import Foundation

/// One telemetry record. It says which session it belongs to, when it happened, the machine model, the OS
/// version and the library version, and nothing that identifies a user or a device (no host name, user name,
/// machine id or network address).
public struct TelemetryEvent: Sendable, Hashable, Codable {
    /// What the event is.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A session analytics event (only with `TelemetryConfig.analytics`).
        case analytics
        /// A diagnostic report of a failure (only with `TelemetryConfig.errorReporting`).
        case error
    }

    /// Analytics or error.
    public var kind: Kind
    /// A short machine-readable name, such as `initialize` or `analysis.stopped`.
    public var name: String
    /// The analysis session the event belongs to, if any.
    public var sessionId: UUID?
    /// When it happened.
    public var time: Date
    /// The machine model (DMI product name, else the CPU architecture).
    public var machineModel: String
    /// The operating system and kernel version.
    public var osVersion: String
    /// `SleepAnalysisVersion.current`.
    public var libraryVersion: String
    /// Event details (scrubbed of the home directory and user name).
    public var attributes: [String: String]

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - kind: Analytics or error.
    ///   - name: A short machine-readable name.
    ///   - sessionId: The session, if any.
    ///   - time: When it happened.
    ///   - machineModel: The machine model.
    ///   - osVersion: The OS version.
    ///   - libraryVersion: The library version.
    ///   - attributes: Details.
    public init(
        kind: Kind, name: String, sessionId: UUID? = nil, time: Date = Date(),
        machineModel: String, osVersion: String, libraryVersion: String = SleepAnalysisVersion.current,
        attributes: [String: String] = [:]
    ) {
        self.kind = kind
        self.name = name
        self.sessionId = sessionId
        self.time = time
        self.machineModel = machineModel
        self.osVersion = osVersion
        self.libraryVersion = libraryVersion
        self.attributes = attributes
    }
}

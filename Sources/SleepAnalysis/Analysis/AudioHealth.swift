import Foundation

/// The health of the audio input.
public enum AudioHealthStatus: String, Sendable, Hashable, Codable {
    /// The input carries a varying signal.
    case healthy
    /// The input is constant: a dead or muted microphone.
    case flatline
    /// No audio has arrived for a long time.
    case missingInput
}

/// A change of audio health, published on `SleepCycleSdk.audioHealthStream`.
public struct AudioHealthUpdate: Sendable, Hashable, Codable {
    /// The new status.
    public var status: AudioHealthStatus
    /// When the status began.
    public var timestamp: Date
    /// The session concerned.
    public var sessionId: UUID

    /// Creates an update.
    ///
    /// - Parameters:
    ///   - status: The new status.
    ///   - timestamp: When the status began.
    ///   - sessionId: The session concerned.
    public init(status: AudioHealthStatus, timestamp: Date, sessionId: UUID) {
        self.status = status
        self.timestamp = timestamp
        self.sessionId = sessionId
    }
}

/// A stretch of time with one audio health status.
public struct AudioHealthInterval: Sendable, Hashable, Codable {
    /// The status.
    public var status: AudioHealthStatus
    /// When it held.
    public var interval: DateInterval

    /// Creates an interval.
    ///
    /// - Parameters:
    ///   - status: The new status.
    ///   - interval: When it held.
    public init(status: AudioHealthStatus, interval: DateInterval) {
        self.status = status
        self.interval = interval
    }
}

/// Audio input health over a session.
public struct AudioStatistics: Sendable, Hashable, Codable {
    /// The health of the input over time, in order, covering the session.
    public var healthIntervals: [AudioHealthInterval]

    /// Creates statistics.
    ///
    /// - Parameter healthIntervals: The health of the input over time, in order, covering the session.
    public init(healthIntervals: [AudioHealthInterval]) {
        self.healthIntervals = healthIntervals
    }
}

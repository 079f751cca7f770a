import Foundation
import SleepAnalysis

/// How hard to try when a connection cannot be made: a number of attempts with exponentially growing pauses.
public struct FleetDatabaseReconnectPolicy: Sendable, Hashable {
    /// Connection attempts before giving up (at least 1).
    public var attempts: Int
    /// The pause after the first failed attempt, seconds; each later pause doubles.
    public var initialDelay: TimeInterval
    /// The longest pause, seconds.
    public var maximumDelay: TimeInterval

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - attempts: Connection attempts before giving up (values below 1 count as 1).
    ///   - initialDelay: The first pause, seconds.
    ///   - maximumDelay: The longest pause, seconds.
    public init(attempts: Int = 6, initialDelay: TimeInterval = 0.2, maximumDelay: TimeInterval = 5) {
        self.attempts = max(1, attempts)
        self.initialDelay = max(0, initialDelay)
        self.maximumDelay = max(self.initialDelay, maximumDelay)
    }

    /// The pause after failed attempt `attempt` (1-based).
    ///
    /// - Parameter attempt: The attempt that failed.
    /// - Returns: Seconds to wait before the next attempt.
    func delay(after attempt: Int) -> TimeInterval {
        min(maximumDelay, initialDelay * pow(2, Double(max(0, attempt - 1))))
    }
}

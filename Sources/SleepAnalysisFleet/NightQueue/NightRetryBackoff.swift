import Foundation
import SleepAnalysis

/// How long a job waits before its next attempt after a transient failure: `initial`, doubling with each attempt
/// already made, at most `maximum`.
public struct NightRetryBackoff: Sendable, Hashable {
    /// The wait after the first attempt, seconds.
    public var initial: TimeInterval
    /// The longest wait, seconds.
    public var maximum: TimeInterval

    /// Creates a back-off.
    ///
    /// - Parameters:
    ///   - initial: The wait after the first attempt, seconds.
    ///   - maximum: The longest wait, seconds.
    public init(initial: TimeInterval = 10, maximum: TimeInterval = 600) {
        self.initial = max(0, initial)
        self.maximum = max(self.initial, maximum)
    }

    /// The wait after attempt `attempts` (1-based) failed.
    ///
    /// - Parameter attempts: The attempts made so far.
    /// - Returns: Seconds.
    public func delay(afterAttempts attempts: Int) -> TimeInterval {
        min(maximum, initial * pow(2, Double(min(30, max(0, attempts - 1)))))
    }
}

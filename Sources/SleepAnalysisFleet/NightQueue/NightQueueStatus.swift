import Foundation
import SleepAnalysis

/// The queue at a glance: how many jobs are in each state, and the job that has waited longest.
public struct NightQueueStatus: Sendable, Hashable, Codable {
    /// The job waiting longest for a worker.
    public struct WaitingJob: Sendable, Hashable, Codable {
        /// Its identifier.
        public var id: Int64
        /// When it was submitted.
        public var submittedAt: Date
        /// Seconds since then, by the database's clock.
        public var waitingSeconds: Double
    }

    /// Jobs per state (every state present, 0 when none).
    public var counts: [NightJobState: Int]
    /// The oldest `queued` job, nil when none waits.
    public var oldestWaiting: WaitingJob?

    /// Jobs in `state`.
    ///
    /// - Parameter state: The state.
    /// - Returns: How many jobs are in it.
    public func count(_ state: NightJobState) -> Int { counts[state] ?? 0 }
}

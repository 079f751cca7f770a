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

/// What `NightQueue.enqueue(_:policy:)` did: the job, and whether it is new or was already there with the same
/// idempotency key.
public struct NightEnqueued: Sendable, Hashable {
    /// The job's identifier.
    public var id: Int64
    /// True when this call added the job; false when the night was already queued (the existing job's id).
    public var isNew: Bool
}

/// One schema brought up to date by `NightQueue.migrate(address:reconnect:)`.
public struct FleetSchemaMigration: Sendable, Hashable {
    /// The schema (`night-queue`, `session-store`).
    public var schema: String
    /// Its version before.
    public var fromVersion: Int
    /// Its version now.
    public var toVersion: Int
}

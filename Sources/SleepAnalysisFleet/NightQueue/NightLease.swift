import Foundation
import SleepAnalysis

/// A worker's hold on a running job: only the holder of `token` may renew, complete, fail or release it.
///
/// When the lease expires (the worker died or lost its connection), another worker may claim the job with a new
/// token; the old holder's later calls then change nothing.
public struct NightLease: Sendable, Hashable {
    /// The job, as claimed (state `running`, `attempts` counting this one).
    public var job: NightJob
    /// The lease's secret.
    public var token: UUID
    /// When the lease ends unless renewed.
    public var expiresAt: Date
    /// Seconds the job had been ready (queued and due, or its former lease expired) when it was claimed: the claim
    /// latency, by the database's clock.
    public var waitedSeconds: Double = 0
}

/// Why a worker gives a job back.
public enum NightJobFailure: Sendable, Hashable {
    /// The night itself is bad (unreadable or malformed files): the job fails for good with this message.
    case input(String)
    /// Something that may pass (database, disk, resources): the job is retried after a back-off while it has
    /// attempts left, then fails with this message.
    case transient(String)

    /// The message.
    public var message: String {
        switch self {
        case .input(let message), .transient(let message): message
        }
    }
}

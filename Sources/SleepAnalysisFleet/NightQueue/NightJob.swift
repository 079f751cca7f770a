import Foundation
import SleepAnalysis

/// Where a job is in its life: `queued` → `running` → `done`, or `failed` / `cancelled`.
public enum NightJobState: String, Sendable, Hashable, Codable, CodingKeyRepresentable, CaseIterable {
    /// Waiting for a worker (possibly until a retry's back-off has passed).
    case queued
    /// Leased by a worker.
    case running
    /// Analysed; the result is stored.
    case done
    /// Given up: bad input, or too many attempts.
    case failed
    /// Cancelled by an operator.
    case cancelled
}

/// A job in the night queue.
public struct NightJob: Sendable, Hashable {
    /// The job's identifier.
    public var id: Int64
    /// The night.
    public var submission: NightSubmission
    /// Where the job is.
    public var state: NightJobState
    /// How many times a worker has taken it.
    public var attempts: Int
    /// When it was submitted.
    public var submittedAt: Date
    /// When a worker may take it next (after a retry's back-off).
    public var availableAt: Date
    /// When a worker last took it.
    public var startedAt: Date?
    /// When it became `done`, `failed` or `cancelled`.
    public var finishedAt: Date?
    /// The worker holding its lease, while `running`.
    public var leasedBy: String?
    /// When that lease ends unless renewed, while `running`.
    public var leaseExpiresAt: Date?
    /// The last failure's message (kept after a retry succeeds).
    public var lastError: String?
    /// The job's idempotency key (explicit or default; nil for jobs queued before keys existed).
    public var idempotencyKey: String?
}

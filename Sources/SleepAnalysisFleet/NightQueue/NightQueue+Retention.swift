import Foundation
import SleepAnalysis

/// What `NightQueue.prune(olderThan:includingNights:)` removed.
public struct NightQueuePruning: Sendable, Hashable, Codable {
    /// Jobs removed (`done`, `failed` or `cancelled`).
    public var jobs: Int
    /// Their results removed.
    public var results: Int
    /// Their checkpoints removed (a job that failed or was cancelled mid-night may have one).
    public var checkpoints: Int
    /// Their nights removed from the session store (0 unless asked), each leaving a tombstone there.
    public var nights: Int
}

/// Retention: finished jobs removed after a while, with their results and checkpoints.
extension NightQueue {
    /// Jobs removed per transaction, so that pruning a large backlog never holds long locks.
    static let pruneBatch = 500

    /// Removes the jobs that ended (`done`, `failed`, `cancelled`) more than `age` seconds ago, with their results
    /// and checkpoints. The nights stored in the session store stay, unless `includingNights` (then each is
    /// deleted there as `SessionStore.delete` does, leaving a tombstone so that synchronising clients learn of it).
    /// Queued and running jobs are never touched.
    ///
    /// - Parameters:
    ///   - age: Seconds since the job ended (by the database's clock); 0 removes every finished job.
    ///   - includingNights: Also delete the finished jobs' nights from the session store.
    /// - Returns: What was removed.
    /// - Throws: `FleetDatabaseError` (`42501` when the role may not delete jobs or nights).
    @discardableResult
    public func prune(olderThan age: TimeInterval, includingNights: Bool = false) async throws -> NightQueuePruning {
        var total = NightQueuePruning(jobs: 0, results: 0, checkpoints: 0, nights: 0)
        while true {
            let batch = try await database.transaction { connection in
                try Self.pruneBatch(connection, age: max(0, age), includingNights: includingNights)
            }
            total.jobs += batch.jobs
            total.results += batch.results
            total.checkpoints += batch.checkpoints
            total.nights += batch.nights
            if batch.jobs < Self.pruneBatch { return total }
        }
    }

    private static func pruneBatch(
        _ connection: PostgresConnection, age: TimeInterval, includingNights: Bool
    ) throws -> NightQueuePruning {
        let ids = try connection.execute(
            """
            SELECT id FROM night_jobs
            WHERE state IN ('done', 'failed', 'cancelled') AND finished_at < now() - make_interval(secs => $1::float8)
            ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED
            """, [PostgresParameters.seconds(age), String(pruneBatch)]
        ).rows.map { try $0.int64(0) }
        guard !ids.isEmpty else { return NightQueuePruning(jobs: 0, results: 0, checkpoints: 0, nights: 0) }
        let list = "{" + ids.map(String.init).joined(separator: ",") + "}"
        var nights = 0
        if includingNights {
            let stored = try connection.execute(
                """
                SELECT r.session_id, j.subject_id FROM night_results r JOIN night_jobs j ON j.id = r.job_id
                WHERE r.job_id = ANY($1::bigint[])
                """, [list]
            ).rows
            for row in stored {
                guard let session = UUID(uuidString: try row.text(0)) else { continue }
                let subject = try row.text(1)
                // Only a night still there: deleting a missing one would take an anchor for nothing.
                let present =
                    try connection.execute(
                        "SELECT 1 FROM session_nights WHERE subject_id = $1 AND session_id = $2::uuid",
                        [subject, session.uuidString]
                    ).rows.isEmpty == false
                if present, try connection.deleteNight(session, subject: subject) != nil { nights += 1 }
            }
        }
        let results = try connection.execute(
            "DELETE FROM night_results WHERE job_id = ANY($1::bigint[])", [list]
        ).affectedRows
        let checkpoints = try connection.execute(
            "DELETE FROM night_checkpoints WHERE job_id = ANY($1::bigint[])", [list]
        ).affectedRows
        let jobs = try connection.execute("DELETE FROM night_jobs WHERE id = ANY($1::bigint[])", [list]).affectedRows
        return NightQueuePruning(jobs: jobs, results: results, checkpoints: checkpoints, nights: nights)
    }

    /// The number of jobs per named queue and state, and per queue the age of the job ready longest (for
    /// metrics).
    ///
    /// - Returns: The counts.
    /// - Throws: `FleetDatabaseError`.
    public func queueCounts() async throws -> [NightQueueCount] {
        try await database.run { connection in
            var counts: [String: NightQueueCount] = [:]
            for row in try connection.execute(
                "SELECT queue_name, state, count(*) FROM night_jobs GROUP BY queue_name, state"
            ).rows {
                let name = try row.text(0)
                guard let state = NightJobState(rawValue: try row.text(1)) else { continue }
                counts[name, default: NightQueueCount(queue: name)].jobs[state] = Int(try row.int64(2))
            }
            for row in try connection.execute(
                """
                SELECT queue_name, extract(epoch FROM now() - min(available_at)) FROM night_jobs
                WHERE state = 'queued' AND available_at <= now() GROUP BY queue_name
                """
            ).rows {
                let name = try row.text(0)
                counts[name, default: NightQueueCount(queue: name)].oldestReadySeconds = max(0, try row.double(1))
            }
            return counts.values.sorted { $0.queue < $1.queue }
        }
    }
}

/// One named queue's jobs by state.
public struct NightQueueCount: Sendable, Hashable {
    /// The queue's name.
    public var queue: String
    /// Jobs per state (every state present, 0 when none).
    public var jobs: [NightJobState: Int]
    /// Seconds the job ready longest has waited (nil when none is ready).
    public var oldestReadySeconds: Double?

    /// An empty count for `queue`.
    init(queue: String) {
        self.queue = queue
        jobs = Dictionary(uniqueKeysWithValues: NightJobState.allCases.map { ($0, 0) })
    }
}

import Foundation
import SleepAnalysis

/// The worker's side of the queue: claim a job under a lease, renew it, and end it exactly once.
///
/// Every call after `claim` is guarded by the lease's token (`WHERE id = $1 AND lease_token = $2 AND state =
/// 'running'`): once a lease has expired and another worker has claimed the job, or an operator cancelled it, the
/// old holder's calls change nothing and return false.
extension NightQueue {
    /// Takes the next job: of the ready ones — `queued` whose `runAt` or back-off has passed, or `running` whose
    /// lease has expired (its worker died) — the one of highest priority, then the oldest. Concurrent claimers never
    /// get the same job (`FOR UPDATE SKIP LOCKED`). Jobs whose lease expired with no attempts left are marked
    /// `failed` on the way.
    ///
    /// A lease is not taken over until its full length has passed since the database server started: after an
    /// outage that stopped the server, the workers still holding leases have a whole lease to renew them or store
    /// their results, so a night finished during the outage is not analysed again and no attempt is spent.
    ///
    /// - Parameters:
    ///   - worker: The claiming worker's name (host and process), for `status` and logs.
    ///   - leaseDuration: Seconds the lease lasts unless renewed.
    ///   - queues: The named queues to take jobs from; empty for every queue.
    /// - Returns: The lease, or nil when no job is ready.
    /// - Throws: `FleetDatabaseError`.
    public func claim(
        worker: String, leaseDuration: TimeInterval, queues: [String] = []
    ) async throws -> NightLease? {
        let token = UUID()
        let queueList: PostgresParameter =
            queues.isEmpty
            ? nil
            : "{" + queues.map { "\"" + $0.replacingOccurrences(of: "\"", with: "") + "\"" }.joined(separator: ",")
                + "}"
        return try await database.transaction { connection in
            try connection.execute(
                """
                UPDATE night_jobs SET state = 'failed', finished_at = now(), lease_token = NULL,
                    lease_expires_at = NULL,
                    last_error = 'gave up after ' || attempts || ' attempts: the lease of ' || coalesce(leased_by, '?')
                        || ' expired (the worker died or lost the database)'
                WHERE state = 'running' AND lease_expires_at < now() AND attempts >= max_attempts
                    AND now() > pg_postmaster_start_time() + make_interval(secs => coalesce(lease_seconds, 0))
                    AND ($1::text[] IS NULL OR queue_name = ANY($1::text[]))
                """, [queueList])
            guard
                let row = try connection.execute(
                    """
                    WITH next AS (
                        SELECT id, extract(epoch FROM now()
                            - CASE WHEN state = 'queued' THEN available_at ELSE lease_expires_at END) AS waited
                        FROM night_jobs
                        WHERE ((state = 'queued' AND available_at <= now())
                           OR (state = 'running' AND lease_expires_at < now()
                               AND now() > pg_postmaster_start_time() + make_interval(secs => coalesce(lease_seconds, 0))))
                           AND ($4::text[] IS NULL OR queue_name = ANY($4::text[]))
                        ORDER BY priority DESC, available_at, id
                        LIMIT 1
                        FOR UPDATE SKIP LOCKED
                    )
                    UPDATE night_jobs j SET state = 'running', attempts = j.attempts + 1, lease_token = $1::uuid,
                        leased_by = $2, lease_expires_at = now() + make_interval(secs => $3::float8),
                        lease_seconds = $3::float8, started_at = now()
                    FROM next WHERE j.id = next.id
                    RETURNING \(NightJobRow.columns), next.waited
                    """,
                    [token.uuidString, worker, PostgresParameters.seconds(leaseDuration), queueList]
                ).rows.first
            else { return nil }
            let job = try NightJobRow.job(from: row)
            guard let expiresAt = job.leaseExpiresAt else {
                throw FleetDatabaseError(kind: .unexpectedResult, message: "claimed job \(job.id) has no lease end")
            }
            var lease = NightLease(job: job, token: token, expiresAt: expiresAt)
            lease.waitedSeconds = max(0, (try? row.double(NightJobRow.columnCount)) ?? 0)
            return lease
        }
    }

    /// Extends a lease by `duration` from now.
    ///
    /// - Parameters:
    ///   - lease: The lease (its `expiresAt` is updated).
    ///   - duration: Seconds from now.
    /// - Returns: False when the lease is no longer held (expired and claimed by another worker, or cancelled):
    ///   the worker should stop working on the job.
    /// - Throws: `FleetDatabaseError`.
    public func renew(_ lease: inout NightLease, for duration: TimeInterval) async throws -> Bool {
        let (id, token) = (lease.job.id, lease.token)
        let row = try await database.run { connection in
            try connection.execute(
                """
                UPDATE night_jobs SET lease_expires_at = now() + make_interval(secs => $3::float8),
                    lease_seconds = $3::float8
                WHERE id = $1 AND lease_token = $2::uuid AND state = 'running'
                RETURNING extract(epoch FROM lease_expires_at)
                """, [String(id), token.uuidString, PostgresParameters.seconds(duration)]
            ).rows.first
        }
        guard let row else { return false }
        lease.expiresAt = try row.date(0)
        return true
    }

    /// Stores the job's result, marks it `done`, drops its checkpoint and saves the night in the PostgreSQL session
    /// store under the job's subject (see `SessionStore.init(address:subject:)`), in one transaction.
    ///
    /// - Parameters:
    ///   - lease: The lease.
    ///   - result: The night's result.
    ///   - worker: The worker's name, stored with the result.
    /// - Returns: False when the lease is no longer held: nothing was written (another worker owns the job).
    /// - Throws: `FleetDatabaseError`, `SleepCycleSdkError.storageFailure` when the result cannot be encoded.
    @discardableResult
    public func complete(_ lease: NightLease, result: AnalysisResult, worker: String) async throws -> Bool {
        let record = try SessionStoreRecord(result)
        let json = String(decoding: record.result, as: UTF8.self)
        let (id, token, session) = (String(lease.job.id), lease.token.uuidString, result.sessionId.uuidString)
        let subject = lease.job.submission.subjectId
        return try await database.transaction { connection in
            let ended = try connection.execute(
                """
                UPDATE night_jobs SET state = 'done', finished_at = now(), lease_token = NULL,
                    lease_expires_at = NULL
                WHERE id = $1 AND lease_token = $2::uuid AND state = 'running'
                """, [id, token]
            ).affectedRows
            guard ended == 1 else { return false }
            try connection.execute("DELETE FROM night_checkpoints WHERE job_id = $1", [id])
            try connection.execute(
                "INSERT INTO night_results (job_id, session_id, result, written_by) VALUES ($1, $2::uuid, $3::jsonb, $4)",
                [id, session, json, worker])
            _ = try connection.saveNight(record, subject: subject)
            return true
        }
    }

    /// Gives a job back after a failure: `input` fails it for good; `transient` queues it again after the retry
    /// back-off, or fails it when it has no attempts left.
    ///
    /// - Parameters:
    ///   - lease: The lease.
    ///   - failure: What went wrong.
    /// - Returns: The job's new state, or nil when the lease is no longer held (nothing changed).
    /// - Throws: `FleetDatabaseError`.
    @discardableResult
    public func fail(_ lease: NightLease, _ failure: NightJobFailure) async throws -> NightJobState? {
        let retryable: Bool
        let message: String
        switch failure {
        case .input(let text): (retryable, message) = (false, text)
        case .transient(let text): (retryable, message) = (true, text)
        }
        let delay = PostgresParameters.seconds(retryBackoff.delay(afterAttempts: lease.job.attempts))
        let row = try await database.run { connection in
            try connection.execute(
                """
                UPDATE night_jobs SET
                    state = CASE WHEN $3::boolean AND attempts < max_attempts THEN 'queued' ELSE 'failed' END,
                    available_at = now() + make_interval(secs => $4::float8),
                    finished_at = CASE WHEN $3::boolean AND attempts < max_attempts THEN NULL ELSE now() END,
                    last_error = CASE WHEN $3::boolean AND attempts >= max_attempts
                        THEN 'gave up after ' || attempts || ' attempts: ' || $5::text ELSE $5::text END,
                    lease_token = NULL, lease_expires_at = NULL
                WHERE id = $1 AND lease_token = $2::uuid AND state = 'running'
                RETURNING state
                """, [String(lease.job.id), lease.token.uuidString, retryable ? "true" : "false", delay, message]
            ).rows.first
        }
        return try row.flatMap { NightJobState(rawValue: try $0.text(0)) }
    }

    /// Puts a job back in the queue without counting the attempt (the worker is stopping before finishing it).
    ///
    /// - Parameter lease: The lease.
    /// - Returns: False when the lease is no longer held.
    /// - Throws: `FleetDatabaseError`.
    @discardableResult
    public func release(_ lease: NightLease) async throws -> Bool {
        let (id, token) = (String(lease.job.id), lease.token.uuidString)
        return try await database.transaction { connection in
            let changed = try connection.execute(
                """
                UPDATE night_jobs SET state = 'queued', attempts = greatest(0, attempts - 1), available_at = now(),
                    lease_token = NULL, lease_expires_at = NULL
                WHERE id = $1 AND lease_token = $2::uuid AND state = 'running'
                """, [id, token]
            ).affectedRows
            if changed == 1 { try connection.notify(NightQueueSchema.channel, payload: id) }
            return changed == 1
        }
    }
}

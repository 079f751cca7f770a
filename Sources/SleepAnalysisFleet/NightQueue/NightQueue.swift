import Foundation
import SleepAnalysis

/// A queue of recorded nights in PostgreSQL, shared by any number of workers on any number of machines.
///
/// Applications submit nights and read results; workers (`NightWorker`) claim jobs under a lease, renew it while
/// they analyse, and complete or fail them. Opening the queue creates or upgrades its tables (safely while other
/// workers do the same).
///
/// ```swift
/// let queue = try await NightQueue(address: FleetDatabaseAddress.resolve(nil))   // $SLEEPANALYSIS_DATABASE_URL
/// let id = try await queue.submit(NightSubmission(audio: night, startTime: start, subjectId: "subject-7"))
/// // … workers analyse it …
/// if let result = try await queue.result(jobId: id) { print(result.statistics?.totalSleepDuration ?? 0) }
/// ```
public final class NightQueue: Sendable {
    /// Where the queue is.
    public let address: FleetDatabaseAddress
    let database: PostgresDatabase
    /// How retries after transient failures are spaced.
    public let retryBackoff: NightRetryBackoff

    /// Opens the queue at `address`, creating or upgrading its tables and the session store's.
    ///
    /// - Parameters:
    ///   - address: Where the database is (`FleetDatabaseAddress.resolve(_:)` reads `$SLEEPANALYSIS_DATABASE_URL`).
    ///   - reconnect: How to retry connecting.
    ///   - retryBackoff: How retries after transient failures are spaced.
    /// - Throws: `FleetDatabaseError` when the database cannot be reached or migrated.
    public init(
        address: FleetDatabaseAddress, reconnect: FleetDatabaseReconnectPolicy = FleetDatabaseReconnectPolicy(),
        retryBackoff: NightRetryBackoff = NightRetryBackoff()
    ) async throws {
        self.address = address
        self.retryBackoff = retryBackoff
        database = PostgresDatabase(address: address, policy: reconnect)
        try await NightQueueSchema.migrator.migrate(database)
        // Workers save each finished night in the session store, in the transaction of its result.
        try await PostgresSessionStoreSchema.migrator.migrate(database)
    }

    /// Adds a night; workers are told at once (`NOTIFY`).
    ///
    /// - Parameter night: The night.
    /// - Returns: The job's identifier.
    /// - Throws: `RemoteInputError` when an input is a URL but not a well-formed `http(s)` one; `FleetDatabaseError`.
    public func submit(_ night: NightSubmission) async throws -> Int64 {
        try NightInputLocation.validate(night)
        return try await database.transaction { connection in
            let row = try connection.execute(
                """
                INSERT INTO night_jobs (subject_id, audio_path, accelerometer_path, heart_rate_path, start_time,
                    max_attempts)
                VALUES ($1, $2, $3, $4, to_timestamp($5::float8), $6::integer) RETURNING id
                """,
                [
                    night.subjectId, NightInputLocation.stored(night.audio),
                    night.accelerometer.map(NightInputLocation.stored), night.heartRate.map(NightInputLocation.stored),
                    PostgresParameters.seconds(night.startTime), String(night.maxAttempts),
                ]
            ).rows.first
            guard let id = try row?.int64(0) else {
                throw FleetDatabaseError(kind: .unexpectedResult, message: "INSERT returned no job id")
            }
            try connection.notify(NightQueueSchema.channel, payload: String(id))
            return id
        }
    }

    /// A job, or nil when there is none with that identifier.
    ///
    /// - Parameter id: The job's identifier.
    /// - Returns: The job.
    /// - Throws: `FleetDatabaseError`.
    public func job(id: Int64) async throws -> NightJob? {
        try await database.run { connection in
            try connection.execute("SELECT \(NightJobRow.columns) FROM night_jobs j WHERE j.id = $1", [String(id)])
                .rows.first.map(NightJobRow.job(from:))
        }
    }

    /// The jobs in `states` (all states when empty), oldest first, at most `limit`.
    ///
    /// - Parameters:
    ///   - states: The states to list; empty for all.
    ///   - limit: The most jobs to return.
    /// - Returns: The jobs.
    /// - Throws: `FleetDatabaseError`.
    public func jobs(in states: [NightJobState] = [], limit: Int = 100) async throws -> [NightJob] {
        let names =
            "{" + (states.isEmpty ? NightJobState.allCases : states).map(\.rawValue).joined(separator: ",") + "}"
        return try await database.run { connection in
            try connection.execute(
                "SELECT \(NightJobRow.columns) FROM night_jobs j WHERE j.state = ANY($1::text[]) ORDER BY j.id LIMIT $2",
                [names, String(max(0, limit))]
            ).rows.map(NightJobRow.job(from:))
        }
    }

    /// Counts per state and the job waiting longest.
    ///
    /// - Returns: The status.
    /// - Throws: `FleetDatabaseError`.
    public func status() async throws -> NightQueueStatus {
        try await database.run { connection in
            var counts = Dictionary(uniqueKeysWithValues: NightJobState.allCases.map { ($0, 0) })
            for row in try connection.execute("SELECT state, count(*) FROM night_jobs GROUP BY state").rows {
                if let state = NightJobState(rawValue: try row.text(0)) { counts[state] = Int(try row.int64(1)) }
            }
            let oldest = try connection.execute(
                """
                SELECT id, extract(epoch FROM submitted_at), extract(epoch FROM now() - submitted_at)
                FROM night_jobs WHERE state = 'queued' ORDER BY submitted_at, id LIMIT 1
                """
            ).rows.first.map { row in
                NightQueueStatus.WaitingJob(
                    id: try row.int64(0), submittedAt: try row.date(1), waitingSeconds: try row.double(2))
            }
            return NightQueueStatus(counts: counts, oldestWaiting: oldest)
        }
    }

    /// Puts a `failed` or `cancelled` job back in the queue with its attempts reset (and its checkpoint dropped).
    ///
    /// - Parameter id: The job's identifier.
    /// - Returns: False when there is no such job or it is not failed or cancelled.
    /// - Throws: `FleetDatabaseError`.
    @discardableResult
    public func retry(jobId id: Int64) async throws -> Bool {
        try await database.transaction { connection in
            let changed = try connection.execute(
                """
                UPDATE night_jobs SET state = 'queued', attempts = 0, available_at = now(), finished_at = NULL
                WHERE id = $1 AND state IN ('failed', 'cancelled')
                """, [String(id)]
            ).affectedRows
            guard changed == 1 else { return false }
            // A retried job starts its night afresh.
            try connection.execute("DELETE FROM night_checkpoints WHERE job_id = $1", [String(id)])
            try connection.notify(NightQueueSchema.channel, payload: String(id))
            return true
        }
    }

    /// Cancels a `queued` or `running` job. A worker analysing it finds out at its next lease renewal and stops;
    /// its result is not stored.
    ///
    /// - Parameter id: The job's identifier.
    /// - Returns: False when there is no such job or it has already ended.
    /// - Throws: `FleetDatabaseError`.
    @discardableResult
    public func cancel(jobId id: Int64) async throws -> Bool {
        try await database.run { connection in
            try connection.execute(
                """
                UPDATE night_jobs SET state = 'cancelled', finished_at = now(), lease_token = NULL,
                    lease_expires_at = NULL, leased_by = NULL
                WHERE id = $1 AND state IN ('queued', 'running')
                """, [String(id)]
            ).affectedRows == 1
        }
    }

    /// A `done` job's result, or nil when the job has none (yet).
    ///
    /// - Parameter id: The job's identifier.
    /// - Returns: The result.
    /// - Throws: `FleetDatabaseError`, or `SleepCycleSdkError.storageFailure` when the stored result does not decode.
    public func result(jobId id: Int64) async throws -> AnalysisResult? {
        let text = try await database.run { connection in
            try connection.execute("SELECT result::text FROM night_results WHERE job_id = $1", [String(id)])
                .rows.first?.text(0)
        }
        return try text.map {
            try PersistenceCoding.decode(AnalysisResult.self, from: Data($0.utf8), what: "the result of job \(id)")
        }
    }

    /// Closes the queue's connection (a later call connects again).
    public func close() async {
        await database.close()
    }
}

import Foundation
import SleepAnalysis

/// A queue of recorded nights in PostgreSQL, shared by any number of workers on any number of machines.
///
/// Applications submit nights and read results; workers (`NightWorker`) claim jobs under a lease, renew it while
/// they analyse, and complete or fail them. The tables are created and upgraded by `NightQueue.migrate(address:reconnect:)`
/// alone (`sleepanalysis queue migrate`, run by the owner role); opening a queue only checks their version, so
/// submitters, workers and readers need no right to change the schema (`Tools/postgres/roles.sql`).
///
/// ```swift
/// try await NightQueue.migrate(address: owner)                                   // once, as the owner
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

    /// Opens the queue at `address` and checks that its tables (and the session store's) are at this library's
    /// version. Issues no DDL.
    ///
    /// - Parameters:
    ///   - address: Where the database is (`FleetDatabaseAddress.resolve(_:)` reads `$SLEEPANALYSIS_DATABASE_URL`).
    ///   - reconnect: How to retry connecting.
    ///   - retryBackoff: How retries after transient failures are spaced.
    /// - Throws: `FleetDatabaseError`: `connection` when the database cannot be reached, `authentication` when it
    ///   refuses the login, `schemaMismatch` when the tables are missing, older (run `migrate`) or newer.
    public init(
        address: FleetDatabaseAddress, reconnect: FleetDatabaseReconnectPolicy = FleetDatabaseReconnectPolicy(),
        retryBackoff: NightRetryBackoff = NightRetryBackoff()
    ) async throws {
        self.address = address
        self.retryBackoff = retryBackoff
        database = PostgresDatabase(address: address, policy: reconnect)
        try await NightQueueSchema.migrator.check(database)
        // Workers save each finished night in the session store, in the transaction of its result.
        try await PostgresSessionStoreSchema.migrator.check(database)
    }

    /// Creates or upgrades the queue's tables and the session store's: the only call that issues DDL, for the
    /// database owner (`sleepanalysis queue migrate`). Safe while other processes do the same.
    ///
    /// - Parameters:
    ///   - address: Where the database is.
    ///   - reconnect: How to retry connecting.
    /// - Returns: Each schema with the version it had and the version it has now.
    /// - Throws: `FleetDatabaseError` (a role without `CREATE` gets SQLSTATE `42501`).
    @discardableResult
    public static func migrate(
        address: FleetDatabaseAddress, reconnect: FleetDatabaseReconnectPolicy = FleetDatabaseReconnectPolicy()
    ) async throws -> [FleetSchemaMigration] {
        let database = PostgresDatabase(address: address, policy: reconnect)
        var done: [FleetSchemaMigration] = []
        do {
            for migrator in [NightQueueSchema.migrator, PostgresSessionStoreSchema.migrator] {
                let before = try await migrator.migrate(database)
                done.append(
                    FleetSchemaMigration(
                        schema: migrator.schemaName, fromVersion: before, toVersion: migrator.latestVersion))
            }
        } catch {
            await database.close()
            throw error
        }
        await database.close()
        return done
    }

    /// Adds a night, unless a job with its idempotency key is already queued (see `enqueue(_:policy:)`).
    ///
    /// - Parameter night: The night.
    /// - Returns: The job's identifier (the existing job's for a night already submitted).
    /// - Throws: As `enqueue(_:policy:)`.
    public func submit(_ night: NightSubmission) async throws -> Int64 {
        try await enqueue(night).id
    }

    /// Adds a night; workers are told at once (`NOTIFY`). A night whose idempotency key (explicit, or the default
    /// `NightSubmission.defaultIdempotencyKey()`) is already in the queue, in any state, is not added again: the
    /// existing job is returned, also when two submissions race.
    ///
    /// - Parameters:
    ///   - night: The night.
    ///   - policy: Which inputs may be named (`NightInputPolicy`); any by default.
    /// - Returns: The job and whether it was created by this call.
    /// - Throws: `SleepCycleSdkError.invalidInput` for an empty subject, a bad queue name or an input outside the
    ///   policy's roots; `RemoteInputError` for a URL that is malformed or not allowed; `FleetDatabaseError`.
    public func enqueue(
        _ night: NightSubmission, policy: NightInputPolicy = .unconfined
    ) async throws -> NightEnqueued {
        try Self.validate(night)
        try NightInputLocation.validate(night)
        try policy.check(night)
        let key: String
        if let given = night.idempotencyKey {
            key = given
        } else {
            // Hashing a night's files reads them whole: off the cooperative pool.
            key = try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try night.defaultIdempotencyKey() })
                }
            }
        }
        let parameters: [PostgresParameter] = [
            night.subjectId, NightInputLocation.stored(night.audio),
            night.accelerometer.map(NightInputLocation.stored), night.heartRate.map(NightInputLocation.stored),
            PostgresParameters.seconds(night.startTime), String(night.maxAttempts), key, night.queue,
            String(night.priority), night.runAt.map(PostgresParameters.seconds),
        ]
        return try await database.transaction { connection in
            let inserted = try connection.execute(
                """
                INSERT INTO night_jobs (subject_id, audio_path, accelerometer_path, heart_rate_path, start_time,
                    max_attempts, idempotency_key, queue_name, priority, available_at)
                VALUES ($1, $2, $3, $4, to_timestamp($5::float8), $6::integer, $7, $8, $9::integer,
                    coalesce(to_timestamp($10::float8), now()))
                ON CONFLICT (idempotency_key) DO NOTHING
                RETURNING id
                """, parameters
            ).rows.first
            if let id = try inserted?.int64(0) {
                try connection.notify(NightQueueSchema.channel, payload: String(id))
                return NightEnqueued(id: id, isNew: true)
            }
            guard
                let existing = try connection.execute(
                    "SELECT id FROM night_jobs WHERE idempotency_key = $1", [key]
                ).rows.first
            else {
                throw FleetDatabaseError(
                    kind: .unexpectedResult, message: "the job with idempotency key \(key) vanished while submitting")
            }
            return NightEnqueued(id: try existing.int64(0), isNew: false)
        }
    }

    /// The longest queue name.
    static let maximumQueueNameLength = 64

    /// Refuses a night that cannot be queued whatever its inputs.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput`.
    static func validate(_ night: NightSubmission) throws {
        if night.subjectId.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw SleepCycleSdkError.invalidInput("a night needs a subject id (it is empty)")
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        if night.queue.isEmpty || night.queue.count > maximumQueueNameLength
            || !night.queue.allSatisfy(allowed.contains)
        {
            throw SleepCycleSdkError.invalidInput(
                "the queue name '\(night.queue)' is not 1 to \(maximumQueueNameLength) letters, digits, '.', '_' or '-'"
            )
        }
        if let key = night.idempotencyKey, key.isEmpty || key.count > 512 {
            throw SleepCycleSdkError.invalidInput("an idempotency key has 1 to 512 characters")
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
    ///   - queue: Only this named queue; nil for all.
    ///   - limit: The most jobs to return.
    /// - Returns: The jobs.
    /// - Throws: `FleetDatabaseError`.
    public func jobs(in states: [NightJobState] = [], queue: String? = nil, limit: Int = 100) async throws -> [NightJob]
    {
        let names =
            "{" + (states.isEmpty ? NightJobState.allCases : states).map(\.rawValue).joined(separator: ",") + "}"
        return try await database.run { connection in
            try connection.execute(
                """
                SELECT \(NightJobRow.columns) FROM night_jobs j
                WHERE j.state = ANY($1::text[]) AND ($3::text IS NULL OR j.queue_name = $3)
                ORDER BY j.id LIMIT $2
                """,
                [names, String(max(0, limit)), queue]
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
            guard changed == 1 else {
                try Self.refuseIfHidden(connection, id: id, states: ["failed", "cancelled"], doing: "retry")
                return false
            }
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

    /// Throws the permission error a row-level security policy hides: the job is in one of `states`, so the
    /// statement that changed nothing was not allowed to see it (a worker's role retrying a job).
    private static func refuseIfHidden(
        _ connection: PostgresConnection, id: Int64, states: [String], doing action: String
    ) throws {
        let state = try connection.execute("SELECT state FROM night_jobs WHERE id = $1", [String(id)]).rows.first?[0]
        guard let state, states.contains(state) else { return }
        throw FleetDatabaseError(
            kind: .statement, sqlState: "42501",
            message: "permission denied: this role may not \(action) job \(id) (\(state)); see Tools/postgres/roles.sql"
        )
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

import Foundation

/// The store of finished nights (`<directory>/sessions.sqlite`), with HealthKit-style access: nights and
/// stage samples by date range, anchored (incremental) queries, a stream of changes, and HealthKit export.
///
/// Safe to share between threads and tasks. Several processes may open the same directory (SQLite
/// locking); the `changes` stream reports the changes made through this instance only, while anchored
/// queries see every process's changes.
public final class SessionStore: Sendable {
    /// The database file's name inside the store directory.
    public static let fileName = "sessions.sqlite"

    private static let migrator = SQLiteMigrator(
        schemaName: "session-store",
        migrations: [
            """
            CREATE TABLE store_state (id INTEGER PRIMARY KEY CHECK (id = 1), anchor INTEGER NOT NULL);
            INSERT INTO store_state (id, anchor) VALUES (1, 0);
            CREATE TABLE nights (
                session_id TEXT PRIMARY KEY NOT NULL,
                start_time REAL NOT NULL,
                end_time REAL NOT NULL,
                time_zone TEXT NOT NULL,
                anchor INTEGER NOT NULL,
                summary BLOB NOT NULL,
                result BLOB NOT NULL
            );
            CREATE INDEX nights_by_start ON nights (start_time);
            CREATE INDEX nights_by_anchor ON nights (anchor);
            CREATE TABLE stage_samples (
                session_id TEXT NOT NULL REFERENCES nights (session_id) ON DELETE CASCADE,
                start_time REAL NOT NULL,
                end_time REAL NOT NULL,
                stage TEXT NOT NULL
            );
            CREATE INDEX stage_samples_by_start ON stage_samples (start_time);
            CREATE INDEX stage_samples_by_session ON stage_samples (session_id);
            CREATE TABLE tombstones (session_id TEXT PRIMARY KEY NOT NULL, anchor INTEGER NOT NULL);
            CREATE INDEX tombstones_by_anchor ON tombstones (anchor);
            """
        ])

    /// The default store directory, beside the SDK's other data: `$XDG_DATA_HOME/sleepanalysis` when that
    /// variable holds an absolute path, else `~/.local/share/sleepanalysis`.
    ///
    /// - Parameter environment: The process environment (injectable for tests).
    /// - Returns: The directory (not created).
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        StorageLocations.resolve(storageDirectory: nil, environment: environment).dataDirectory
    }

    /// The directory holding the database.
    public let directory: URL

    /// True when the store was opened with `init(readingFrom:)`: queries work, writes fail.
    public let isReadOnly: Bool
    /// The damaged database `init(directory:)` renamed aside before starting a new one, if it found one.
    public let quarantined: QuarantinedFile?

    let database: SQLiteDatabase
    private let subscribers = SessionStoreSubscribers()
    /// Serialises each write with the publication of its change, so subscribers see anchors in order.
    private let publicationLock = NSLock()
    /// Where the `async` calls do their blocking SQLite work, off the caller's executor.
    let blockingQueue = DispatchQueue(label: "SleepAnalysis.SessionStore")

    /// Opens (creating and migrating if needed) the store in `directory` for reading and writing.
    ///
    /// The file is checked first (SQLite's `quick_check`): a damaged file (corrupt, or not a database) is renamed
    /// aside as `sessions.sqlite.corrupt-<UTC time>` and a new, empty store is started; `quarantined` then says
    /// where the old one went.
    ///
    /// - Parameter directory: Where `sessions.sqlite` lives; created if missing.
    /// - Throws: `SleepCycleSdkError.storageFailure`, naming the file and the reason, when the directory or
    ///   database cannot be created or written (read-only place, full disk), or the file is another kind of
    ///   database or from a newer library.
    public init(directory: URL) throws {
        self.directory = directory
        isReadOnly = false
        (database, quarantined) = try SQLiteDatabase.openRecovering(directory.appendingPathComponent(Self.fileName)) {
            try Self.migrator.migrate($0)
        }
    }

    /// Opens an existing store for reading only, changing no file: this works on a read-only file or in a
    /// read-only directory (where SQLite cannot create its `-wal` and `-shm` files), and never creates a store.
    ///
    /// - Parameter directory: Where `sessions.sqlite` lives.
    /// - Throws: `SleepCycleSdkError.storageFailure` when there is no store, it cannot be read, or its schema is
    ///   not this library's (an older store must be opened for writing once to be upgraded).
    public init(readingFrom directory: URL) throws {
        self.directory = directory
        isReadOnly = true
        quarantined = nil
        database = try SQLiteDatabase(readingOnly: directory.appendingPathComponent(Self.fileName))
        try Self.migrator.requireCurrent(database)
    }

    deinit {
        subscribers.finishAll()
    }

    // MARK: - Writing

    /// Saves a night, replacing any earlier result of the same session.
    ///
    /// - Parameter result: The night's result.
    /// - Returns: The change that was published on `changes`.
    /// - Throws: `SleepCycleSdkError.storageFailure` when encoding or writing fails (nothing is then changed).
    @discardableResult
    public func save(_ result: AnalysisResult) throws -> SessionStoreChange {
        let night = StoredNight(result: result)
        let summary = try PersistenceCoding.encode(night, what: "the night summary")
        let body = try PersistenceCoding.encode(result, what: "the analysis result")
        let samples = Self.stageSamples(of: result)
        do {
            return try insert(night, summary: summary, body: body, samples: samples)
        } catch SleepCycleSdkError.storageFailure(let why) {
            throw SleepCycleSdkError.storageFailure(
                "cannot save the night \(result.sessionId) in \(database.url.path): \(why)")
        }
    }

    /// Writes one night's rows in one transaction and publishes the change.
    private func insert(
        _ night: StoredNight, summary: Data, body: Data, samples: [SleepStageSample]
    ) throws -> SessionStoreChange {
        try publishing {
            try database.write { connection in
                let anchor = try nextAnchor(connection)
                try removeNight(night.sessionId, connection)
                try connection.execute("DELETE FROM tombstones WHERE session_id = ?", [.uuid(night.sessionId)])
                try connection.execute(
                    """
                    INSERT INTO nights (session_id, start_time, end_time, time_zone, anchor, summary, result)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .uuid(night.sessionId), .date(night.startTime), .date(night.endTime),
                        .text(night.timeZone.identifier), .integer(anchor.rawValue), .blob(summary), .blob(body),
                    ])
                for sample in samples {
                    try connection.execute(
                        "INSERT INTO stage_samples (session_id, start_time, end_time, stage) VALUES (?, ?, ?, ?)",
                        [
                            .uuid(sample.sessionId), .date(sample.startDate), .date(sample.endDate),
                            .text(sample.stage.rawValue),
                        ])
                }
                return .saved(night, anchor: anchor)
            }
        }
    }

    /// Deletes a night; a tombstone lets anchored queries report the deletion.
    ///
    /// - Parameter sessionId: The session to delete.
    /// - Returns: The published change, or nil when the store had no such night (nothing happens then).
    /// - Throws: `SleepCycleSdkError.storageFailure` when writing fails.
    @discardableResult
    public func delete(sessionId: UUID) throws -> SessionStoreChange? {
        try publishing {
            try database.write { connection -> SessionStoreChange? in
                guard
                    try !connection.query("SELECT 1 FROM nights WHERE session_id = ?", [.uuid(sessionId)]).isEmpty
                else { return nil }
                let anchor = try nextAnchor(connection)
                try removeNight(sessionId, connection)
                try connection.execute(
                    "INSERT OR REPLACE INTO tombstones (session_id, anchor) VALUES (?, ?)",
                    [.uuid(sessionId), .integer(anchor.rawValue)])
                return .deleted(sessionId: sessionId, anchor: anchor)
            }
        }
    }

    // MARK: - Queries

    /// The nights that overlap a date range, earliest start first.
    ///
    /// - Parameter range: The range; a night overlaps it when it starts before the range ends and ends after
    ///   the range starts.
    /// - Returns: The nights' summaries.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails.
    public func nights(in range: DateInterval) throws -> [StoredNight] {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT summary FROM nights WHERE start_time < ? AND end_time > ?
                OR (start_time = end_time AND start_time >= ? AND start_time <= ?)
                ORDER BY start_time, session_id
                """,
                [.date(range.end), .date(range.start), .date(range.start), .date(range.end)])
        }
        return try rows.map { try PersistenceCoding.decode(StoredNight.self, from: $0.blob(0), what: "a night") }
    }

    /// The full result of a stored night, or nil.
    ///
    /// - Parameter sessionId: The session.
    /// - Returns: The result as it was saved, or nil if no night has this session id.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading or decoding fails.
    public func result(sessionId: UUID) throws -> AnalysisResult? {
        let row = try database.read { connection in
            try connection.query("SELECT result FROM nights WHERE session_id = ?", [.uuid(sessionId)]).first
        }
        return try row.map { try PersistenceCoding.decode(AnalysisResult.self, from: $0.blob(0), what: "a result") }
    }

    /// The stage samples that overlap a date range, in time order (like a HealthKit sample query for
    /// `sleepAnalysis` sorted by start date). Samples are whole: not clipped to the range.
    ///
    /// - Parameter range: The range.
    /// - Returns: The samples.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails.
    public func stageSamples(in range: DateInterval) throws -> [SleepStageSample] {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT session_id, stage, start_time, end_time FROM stage_samples
                WHERE start_time < ? AND end_time > ?
                ORDER BY start_time, session_id
                """,
                [.date(range.end), .date(range.start)])
        }
        return try rows.map { row in
            let name = try row.text(1)
            guard let stage = SleepStage(rawValue: name) else {
                throw SleepCycleSdkError.storageFailure("unknown sleep stage '\(name)' in \(directory.path)")
            }
            return SleepStageSample(
                sessionId: try row.uuid(0), stage: stage, startDate: try row.date(2), endDate: try row.date(3))
        }
    }

    /// The answer of an anchored query: nights saved (added or replaced), ids deleted, and the next anchor.
    public typealias AnchoredChanges = (added: [StoredNight], deletedIds: [UUID], anchor: SessionStoreAnchor)

    /// What changed after an anchor: nights saved (added or replaced) and ids deleted, and the anchor to pass
    /// next time (like `HKAnchoredObjectQuery`).
    ///
    /// - Parameters:
    ///   - anchor: The anchor from the previous call, or nil for everything stored (no deletions then).
    ///   - limit: At most this many changes (saved plus deleted), oldest first; the returned anchor is then
    ///     that of the last change returned, so the next call continues after it. Nil for no limit.
    /// - Returns: The saved nights in the order they were saved, the deleted ids in the order they were
    ///   deleted, and the anchor to pass next time.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a limit below 1; `storageFailure` when
    ///   reading fails.
    public func changes(since anchor: SessionStoreAnchor?, limit: Int? = nil) throws -> AnchoredChanges {
        if let limit, limit < 1 {
            throw SleepCycleSdkError.invalidConfiguration("an anchored query's limit must be at least 1, not \(limit)")
        }
        let after = anchor?.rawValue ?? 0
        // Saved nights and tombstones in one anchor-ordered list; tombstones only after a real anchor.
        let (rows, current) = try database.read { connection in
            let rows = try connection.query(
                """
                SELECT anchor, summary, NULL FROM nights WHERE anchor > ?1
                UNION ALL
                SELECT anchor, NULL, session_id FROM tombstones WHERE anchor > ?1 AND ?2
                ORDER BY anchor LIMIT ?3
                """,
                [.integer(after), .integer(anchor == nil ? 0 : 1), .integer(Int64(limit ?? -1))])
            return (rows, try currentAnchor(connection))
        }
        var added: [StoredNight] = []
        var deletedIds: [UUID] = []
        for row in rows {
            if row.isNull(1) {
                deletedIds.append(try row.uuid(2))
            } else {
                added.append(try PersistenceCoding.decode(StoredNight.self, from: row.blob(1), what: "a night"))
            }
        }
        let isTruncated = limit.map { rows.count == $0 } ?? false
        let next = isTruncated ? SessionStoreAnchor(rawValue: try rows[rows.count - 1].int64(0)) : current
        return (added, deletedIds, next)
    }

    /// The newest anchor (the state of the store now).
    ///
    /// - Returns: The anchor of the latest change (pass it to `changes(since:)` later to get what changed after now).
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails.
    public func currentAnchor() throws -> SessionStoreAnchor {
        try database.read { try currentAnchor($0) }
    }

    /// Every change made through this store from now on; each access is a new stream, and any number may
    /// be consumed at once. A stream ends when the store is released.
    public var changes: AsyncStream<SessionStoreChange> { subscribers.makeStream() }

    /// How many `changes` streams are being consumed (for tests and diagnostics).
    var subscriberCount: Int { subscribers.count }

    // MARK: - HealthKit

    /// The HealthKit-style samples of a night: one `inBed` sample, then one per stage interval.
    ///
    /// - Parameter result: The night.
    /// - Returns: The samples (see `HealthKitSleepSample.samples(for:)`).
    public func healthKitSamples(for result: AnalysisResult) -> [HealthKitSleepSample] {
        HealthKitSleepSample.samples(for: result)
    }

    /// The HealthKit-style samples of the stored nights overlapping a range, like an `HKSampleQuery` for
    /// `sleepAnalysis`: each night's `inBed` sample and its stage samples, whole (not clipped), sorted by end
    /// date then start date.
    ///
    /// - Parameter range: The range.
    /// - Returns: The samples.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails.
    public func healthKitSamples(in range: DateInterval) throws -> [HealthKitSleepSample] {
        let nights = try nights(in: range)
        let zones = Dictionary(nights.map { ($0.sessionId, $0.timeZone.identifier) }, uniquingKeysWith: { a, _ in a })
        let inBed = nights.map {
            HealthKitSleepSample(
                value: .inBed, startDate: $0.startTime, endDate: $0.endTime, sessionId: $0.sessionId,
                timeZone: $0.timeZone.identifier)
        }
        let stages = try stageSamples(in: range).map {
            HealthKitSleepSample(
                value: $0.healthKitValue, startDate: $0.startDate, endDate: $0.endDate, sessionId: $0.sessionId,
                timeZone: zones[$0.sessionId] ?? TimeZone.current.identifier)
        }
        return (inBed + stages).sorted {
            ($0.endDate, $0.startDate, $0.value.rawValue) < ($1.endDate, $1.startDate, $1.value.rawValue)
        }
    }

    // MARK: - Helpers

    /// The stage rows indexed for a result: the whole-night stages, or the real-time ones without them.
    private static func stageSamples(of result: AnalysisResult) -> [SleepStageSample] {
        result.storedStageIntervals.map {
            SleepStageSample(
                sessionId: result.sessionId, stage: $0.stage, startDate: $0.interval.start, endDate: $0.interval.end)
        }
    }

    private func publishing(_ write: () throws -> SessionStoreChange?) throws -> SessionStoreChange? {
        try publicationLock.withLock {
            let change = try write()
            if let change { subscribers.publish(change) }
            return change
        }
    }

    private func publishing(_ write: () throws -> SessionStoreChange) throws -> SessionStoreChange {
        try publicationLock.withLock {
            let change = try write()
            subscribers.publish(change)
            return change
        }
    }

    private func nextAnchor(_ connection: SQLiteConnection) throws -> SessionStoreAnchor {
        try connection.execute("UPDATE store_state SET anchor = anchor + 1 WHERE id = 1")
        return try currentAnchor(connection)
    }

    private func currentAnchor(_ connection: SQLiteConnection) throws -> SessionStoreAnchor {
        guard let row = try connection.query("SELECT anchor FROM store_state WHERE id = 1").first else {
            throw SleepCycleSdkError.storageFailure("the session store in \(directory.path) has no anchor row")
        }
        return SessionStoreAnchor(rawValue: try row.int64(0))
    }

    private func removeNight(_ sessionId: UUID, _ connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM stage_samples WHERE session_id = ?", [.uuid(sessionId)])
        try connection.execute("DELETE FROM nights WHERE session_id = ?", [.uuid(sessionId)])
    }
}

import Foundation

/// The store of finished nights, with HealthKit-style access: nights and stage samples by date range, anchored
/// (incremental) queries, a stream of changes, and HealthKit export.
///
/// The embedded default keeps one person's nights in a SQLite file (`<directory>/sessions.sqlite`); a service
/// keeps each subject's nights in PostgreSQL (`init(address:subject:)`), with the same queries.
///
/// Safe to share between threads and tasks. Several processes may open the same store (SQLite locking, or
/// PostgreSQL); anchored queries see every process's changes. The `changes` stream of a SQLite store reports the
/// changes made through this instance only; that of a PostgreSQL store, every change to its subject
/// (`LISTEN/NOTIFY`).
public final class SessionStore: Sendable {
    /// The database file's name inside the store directory.
    public static let fileName = "sessions.sqlite"

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

    /// The directory holding the SQLite database; nil for a PostgreSQL store.
    public let directory: URL?

    /// True when the store was opened with `init(readingFrom:)`: queries work, writes fail.
    public let isReadOnly: Bool
    /// The damaged database `init(directory:)` renamed aside before starting a new one, if it found one.
    public let quarantined: QuarantinedFile?

    /// Where the rows are.
    let backend: any SessionStoreBackend
    private let publisher: SessionStorePublisher
    /// Where the `async` calls do their blocking database work, off the caller's executor.
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
    public convenience init(directory: URL) throws {
        let (database, quarantined) = try SQLiteDatabase.openRecovering(
            directory.appendingPathComponent(Self.fileName)
        ) {
            try SQLiteSessionStoreBackend.migrator.migrate($0)
        }
        self.init(
            backend: SQLiteSessionStoreBackend(database: database), directory: directory, isReadOnly: false,
            quarantined: quarantined)
    }

    /// Opens an existing store for reading only, changing no file: this works on a read-only file or in a
    /// read-only directory (where SQLite cannot create its `-wal` and `-shm` files), and never creates a store.
    ///
    /// - Parameter directory: Where `sessions.sqlite` lives.
    /// - Throws: `SleepCycleSdkError.storageFailure` when there is no store, it cannot be read, or its schema is
    ///   not this library's (an older store must be opened for writing once to be upgraded).
    public convenience init(readingFrom directory: URL) throws {
        let database = try SQLiteDatabase(readingOnly: directory.appendingPathComponent(Self.fileName))
        try SQLiteSessionStoreBackend.migrator.requireCurrent(database)
        self.init(
            backend: SQLiteSessionStoreBackend(database: database), directory: directory, isReadOnly: true,
            quarantined: nil)
    }

    /// A store on `backend`.
    package init(
        backend: any SessionStoreBackend, directory: URL?, isReadOnly: Bool, quarantined: QuarantinedFile?
    ) {
        self.backend = backend
        self.directory = directory
        self.isReadOnly = isReadOnly
        self.quarantined = quarantined
        publisher = SessionStorePublisher(backend: backend)
    }

    deinit {
        publisher.stop()
    }

    // MARK: - Writing

    /// Saves a night, replacing any earlier result of the same session.
    ///
    /// - Parameter result: The night's result.
    /// - Returns: The change that was published on `changes`.
    /// - Throws: `SleepCycleSdkError.storageFailure` when encoding or writing fails (nothing is then changed).
    @discardableResult
    public func save(_ result: AnalysisResult) throws -> SessionStoreChange {
        do {
            let record = try SessionStoreRecord(result)
            return try publisher.publishing {
                .saved(record.night, anchor: try backend.save(record))
            }
        } catch SleepCycleSdkError.storageFailure(let why) {
            throw SleepCycleSdkError.storageFailure(
                "cannot save the night \(result.sessionId) in \(backend.location): \(why)")
        }
    }

    /// Deletes a night; a tombstone lets anchored queries report the deletion.
    ///
    /// - Parameter sessionId: The session to delete.
    /// - Returns: The published change, or nil when the store had no such night (nothing happens then).
    /// - Throws: `SleepCycleSdkError.storageFailure` when writing fails.
    @discardableResult
    public func delete(sessionId: UUID) throws -> SessionStoreChange? {
        try publisher.publishing {
            try backend.delete(sessionId: sessionId).map { .deleted(sessionId: sessionId, anchor: $0) }
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
        try backend.nights(overlapping: range, column: .summary).map {
            try PersistenceCoding.decode(StoredNight.self, from: $0.bytes.get(), what: "a night")
        }
    }

    /// The full result of a stored night, or nil.
    ///
    /// - Parameter sessionId: The session.
    /// - Returns: The result as it was saved, or nil if no night has this session id.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading or decoding fails.
    public func result(sessionId: UUID) throws -> AnalysisResult? {
        try backend.result(sessionId: sessionId).map {
            try PersistenceCoding.decode(AnalysisResult.self, from: $0, what: "a result")
        }
    }

    /// The stage samples that overlap a date range, in time order (like a HealthKit sample query for
    /// `sleepAnalysis` sorted by start date). Samples are whole: not clipped to the range.
    ///
    /// - Parameter range: The range.
    /// - Returns: The samples.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails.
    public func stageSamples(in range: DateInterval) throws -> [SleepStageSample] {
        try backend.stageSamples(overlapping: range).map { row in
            guard let stage = SleepStage(rawValue: row.stage) else {
                throw SleepCycleSdkError.storageFailure("unknown sleep stage '\(row.stage)' in \(backend.location)")
            }
            return SleepStageSample(
                sessionId: row.sessionId, stage: stage, startDate: row.startDate, endDate: row.endDate)
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
        // Saved nights and tombstones in one anchor-ordered list; tombstones only after a real anchor.
        let (rows, current) = try backend.changes(
            after: anchor ?? SessionStoreAnchor(rawValue: 0), includingDeletions: anchor != nil, limit: limit)
        var added: [StoredNight] = []
        var deletedIds: [UUID] = []
        for row in rows {
            switch try row.change() {
            case .saved(let night, _): added.append(night)
            case .deleted(let sessionId, _): deletedIds.append(sessionId)
            }
        }
        let isTruncated = limit.map { rows.count == $0 } ?? false
        let next = isTruncated ? rows[rows.count - 1].anchor : current
        return (added, deletedIds, next)
    }

    /// The newest anchor (the state of the store now).
    ///
    /// - Returns: The anchor of the latest change (pass it to `changes(since:)` later to get what changed after now).
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails.
    public func currentAnchor() throws -> SessionStoreAnchor {
        try backend.currentAnchor()
    }

    /// Every change from now on, in anchor order: made through this store (SQLite), or to this subject through
    /// any connection (PostgreSQL: the first access starts listening). Each access is a new stream, and any number
    /// may be consumed at once. A stream ends when the store is released. Other connections' changes arrive through
    /// an anchored query after each notification, so a night saved and deleted elsewhere between two of them
    /// arrives as its deletion only (as `changes(since:)` reports it).
    public var changes: AsyncStream<SessionStoreChange> { publisher.makeStream() }

    /// How many `changes` streams are being consumed (for tests and diagnostics).
    var subscriberCount: Int { publisher.subscriberCount }

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
}

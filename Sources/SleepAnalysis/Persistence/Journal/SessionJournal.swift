import Foundation
import Synchronization

/// The crash-safe journal of active sessions (`<stateDir>/journal.sqlite`).
///
/// The pipeline writes each session's record when it starts, then one transaction per 30-s epoch
/// (`appendBatch`: the epoch's features, events, breathing rates, predictions, health updates, alarm
/// snapshot and the input checkpoint together). A process killed at any moment, even by SIGKILL, leaves
/// the journal at the last committed epoch: a whole prefix of batches, never part of one. On restart,
/// `activeSessions()` lists what can be resumed, and `records`/`latest`/`checkpoint` give back the state.
/// `finishSession` forgets a session once its result is safely elsewhere.
///
/// How the SDK uses it:
///  - `startAnalysis`: `beginSession(JournalSession(...))` before the first sample is analysed.
///  - Each epoch: `appendBatch([...], sessionId:, checkpoint:)` with that epoch's records (`JournalKind`),
///    snapshots (`JournalEntry.snapshot`: alarm state, engine state) and the input position reached. Nothing
///    published on a stream should be missing from the journal after a crash: publish after the commit.
///  - `updateSmartAlarm(config:)`: `updateSmartAlarm(sessionId:config:)` plus an alarm-state snapshot.
///  - `isResumePossible()` / `resumeAnalysis()`: `activeSessions()` (`resumedSession` for the public view);
///    rebuild each engine from `latest(...)` snapshots, the result-so-far from `records(...)`, and skip the
///    source to `checkpoint(sessionId:)` (a replayed file) or continue live from now (a gap is then a gap).
///  - `stopAnalysis`: build the result from the journal's records plus the in-memory tail, save it in the
///    `SessionStore`, then `finishSession`. `clearActiveSessions()` / `stopDataSource()`: `discardAll()` or
///    `finishSession` per discarded session. `deinitialize()` leaves the journal alone.
///
/// Durability: WAL with `synchronous=NORMAL`, so a killed process loses nothing committed; a power cut may
/// lose the last commits but never leaves a partial batch.
@_spi(Internal)
public final class SessionJournal: Sendable {
    private static let migrator = SQLiteMigrator(
        schemaName: "session-journal",
        migrations: [
            """
            CREATE TABLE sessions (
                session_id TEXT PRIMARY KEY NOT NULL,
                started_at REAL NOT NULL,
                record BLOB NOT NULL,
                processed_until REAL,
                sample_index INTEGER
            );
            CREATE TABLE records (
                seq INTEGER PRIMARY KEY,
                session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                time REAL NOT NULL,
                payload BLOB NOT NULL
            );
            CREATE INDEX records_by_session_kind ON records (session_id, kind, seq);
            """
        ])

    private let database: SQLiteDatabase
    /// Called after each commit that carries a checkpoint, on the committing thread, with the session and the
    /// checkpoint's time; the resume property test copies the journal there (`copy(to:)`).
    let afterCheckpoint = Mutex<(@Sendable (UUID, Date) -> Void)?>(nil)

    /// Opens (creating and migrating if needed) the journal at `databaseURL`.
    ///
    /// - Parameter databaseURL: The database file, usually `<stateDir>/journal.sqlite`.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the file cannot be opened, is not a journal, or
    ///   comes from a newer library.
    public init(databaseURL: URL) throws {
        database = try SQLiteDatabase(url: databaseURL)
        try Self.migrator.migrate(database)
    }

    /// Opens the journal after checking it, or, when the file is damaged (SQLite's `quick_check` fails, it is
    /// not a database, or a session record does not decode), renames it aside as
    /// `journal.sqlite.corrupt-<UTC time>` (with its -wal and -shm files, see `QuarantinedFile`) and starts an
    /// empty journal: a damaged journal costs the sessions it held but never blocks new ones.
    ///
    /// - Parameter databaseURL: The database file, usually `<stateDir>/journal.sqlite`.
    /// - Returns: The journal, and the quarantine record when the damaged file was moved (nil otherwise).
    /// - Throws: `SleepCycleSdkError.storageFailure` when the file cannot be opened for another reason (an
    ///   unwritable directory, a journal from a newer library) or cannot be moved aside.
    public static func openRecovering(
        databaseURL: URL
    ) throws -> (journal: SessionJournal, quarantined: QuarantinedFile?) {
        let (database, quarantined) = try SQLiteDatabase.openRecovering(databaseURL) { database in
            try migrator.migrate(database)
            try validateSessionRecords(database)
        }
        return (SessionJournal(database: database), quarantined)
    }

    /// Wraps a database that is open and migrated.
    private init(database: SQLiteDatabase) {
        self.database = database
    }

    /// Decodes every session record, so that flipped bytes SQLite cannot see are found at open as damage.
    private static func validateSessionRecords(_ database: SQLiteDatabase) throws {
        let rows = try database.read { try $0.query("SELECT session_id, record FROM sessions") }
        for row in rows {
            do {
                _ = try PersistenceCoding.decode(JournalSession.self, from: try row.blob(1), what: "a session record")
            } catch SleepCycleSdkError.storageFailure(let why) {
                let id = (try? row.text(0)) ?? "with an unreadable id"
                throw SQLiteDatabase.damage("session \(id): \(why)", in: database.url)
            }
        }
    }

    // MARK: - Sessions

    /// Records a new active session.
    ///
    /// - Parameter record: The session's set-up.
    /// - Throws: `SleepCycleSdkError.analysisAlreadyRunning` when the id is already journaled;
    ///   `storageFailure` when writing fails.
    public func beginSession(_ record: JournalSession) throws {
        let data = try PersistenceCoding.encode(record, what: "the session record")
        try database.write { connection in
            guard try !exists(record.sessionId, connection) else { throw SleepCycleSdkError.analysisAlreadyRunning }
            try connection.execute(
                "INSERT INTO sessions (session_id, started_at, record) VALUES (?, ?, ?)",
                [.uuid(record.sessionId), .date(record.startTime), .blob(data)])
        }
    }

    /// Replaces (or removes, with nil) the smart alarm persisted with a session.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - config: The alarm now in force, or nil for none.
    /// - Throws: `SleepCycleSdkError.analysisNotActive` when the session is not journaled;
    ///   `storageFailure` when reading or writing fails.
    public func updateSmartAlarm(sessionId: UUID, config: SmartAlarmConfig?) throws {
        try database.write { connection in
            guard var record = try session(sessionId, connection) else { throw SleepCycleSdkError.analysisNotActive }
            record.smartAlarmConfig = config
            let data = try PersistenceCoding.encode(record, what: "the session record")
            try connection.execute(
                "UPDATE sessions SET record = ? WHERE session_id = ?", [.blob(data), .uuid(sessionId)])
        }
    }

    /// The journaled sessions, oldest start first.
    ///
    /// - Returns: The session records.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading or decoding fails.
    public func activeSessions() throws -> [JournalSession] {
        try database.read { connection in
            try connection.query("SELECT record FROM sessions ORDER BY started_at, session_id").map {
                try PersistenceCoding.decode(JournalSession.self, from: try $0.blob(0), what: "a session record")
            }
        }
    }

    /// One journaled session, or nil.
    ///
    /// - Parameter sessionId: The session.
    /// - Returns: The session record, or nil if it is not journaled.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading or decoding fails.
    public func session(_ sessionId: UUID) throws -> JournalSession? {
        try database.read { try session(sessionId, $0) }
    }

    /// Forgets a session and all its records (after its result was delivered or stored). Unknown ids are ignored.
    ///
    /// - Parameter sessionId: The session.
    /// - Throws: `SleepCycleSdkError.storageFailure` when writing fails.
    public func finishSession(_ sessionId: UUID) throws {
        try database.write { connection in
            try connection.execute("DELETE FROM records WHERE session_id = ?", [.uuid(sessionId)])
            try connection.execute("DELETE FROM sessions WHERE session_id = ?", [.uuid(sessionId)])
        }
    }

    /// Forgets every session (`clearActiveSessions()`).
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when writing fails.
    public func discardAll() throws {
        try database.write { connection in
            try connection.execute("DELETE FROM records")
            try connection.execute("DELETE FROM sessions")
        }
    }

    // MARK: - Records

    /// Appends one record in its own transaction.
    ///
    /// - Parameters:
    ///   - payload: The value to journal.
    ///   - kind: What it is (see `JournalKind`).
    ///   - sessionId: The session it belongs to.
    ///   - time: The time it concerns.
    /// - Throws: `SleepCycleSdkError.analysisNotActive` when the session is not journaled;
    ///   `storageFailure` when encoding or writing fails.
    public func append<Payload: Encodable>(_ payload: Payload, kind: String, sessionId: UUID, time: Date) throws {
        try appendBatch([JournalEntry(payload, kind: kind, time: time)], sessionId: sessionId)
    }

    /// Appends several records, and optionally moves the checkpoint, in one transaction: all or nothing.
    ///
    /// - Parameters:
    ///   - entries: The records, in order.
    ///   - sessionId: The session they belong to.
    ///   - checkpoint: The input position these records bring the session to, if it moves.
    /// - Throws: `SleepCycleSdkError.analysisNotActive` when the session is not journaled;
    ///   `storageFailure` when writing fails (nothing of the batch is then kept).
    public func appendBatch(_ entries: [JournalEntry], sessionId: UUID, checkpoint: JournalCheckpoint? = nil) throws {
        try database.write { connection in
            guard try exists(sessionId, connection) else { throw SleepCycleSdkError.analysisNotActive }
            for entry in entries {
                if entry.replacesPrevious {
                    try connection.execute(
                        "DELETE FROM records WHERE session_id = ? AND kind = ?", [.uuid(sessionId), .text(entry.kind)])
                }
                try connection.execute(
                    "INSERT INTO records (session_id, kind, time, payload) VALUES (?, ?, ?, ?)",
                    [.uuid(sessionId), .text(entry.kind), .date(entry.time), .blob(entry.payload)])
            }
            if let checkpoint {
                try write(checkpoint, sessionId: sessionId, connection)
            }
        }
        if let checkpoint, let observer = afterCheckpoint.withLock({ $0 }) {
            observer(sessionId, checkpoint.processedUntil)
        }
    }

    /// Writes a consistent copy of the whole journal to `url` (SQLite's `VACUUM INTO`), as a process killed
    /// right now would leave it.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the copy cannot be written.
    package func copy(to url: URL) throws {
        try database.copy(to: url)
    }

    /// A session's records of one kind, in the order they were appended.
    ///
    /// - Parameters:
    ///   - type: The payload type to decode.
    ///   - kind: The record kind (see `JournalKind`).
    ///   - sessionId: The session.
    /// - Returns: The payloads, oldest first.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails or a payload does not decode as `type`.
    public func records<Payload: Decodable>(of type: Payload.Type, kind: String, sessionId: UUID) throws -> [Payload] {
        let rows = try database.read { connection in
            try connection.query(
                "SELECT payload FROM records WHERE session_id = ? AND kind = ? ORDER BY seq",
                [.uuid(sessionId), .text(kind)])
        }
        return try rows.map { try PersistenceCoding.decode(type, from: $0.blob(0), what: "a '\(kind)' record") }
    }

    /// The newest record of one kind (e.g. the alarm snapshot or an engine checkpoint), or nil.
    ///
    /// - Parameters:
    ///   - type: The payload type to decode.
    ///   - kind: The record kind (see `JournalKind`).
    ///   - sessionId: The session.
    /// - Returns: The newest payload, or nil if there is none.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails or the payload does not decode.
    public func latest<Payload: Decodable>(of type: Payload.Type, kind: String, sessionId: UUID) throws -> Payload? {
        let row = try database.read { connection in
            try connection.query(
                "SELECT payload FROM records WHERE session_id = ? AND kind = ? ORDER BY seq DESC LIMIT 1",
                [.uuid(sessionId), .text(kind)]
            ).first
        }
        return try row.map { try PersistenceCoding.decode(type, from: $0.blob(0), what: "a '\(kind)' record") }
    }

    /// How many records of one kind a session has.
    ///
    /// - Parameters:
    ///   - kind: The record kind (see `JournalKind`).
    ///   - sessionId: The session.
    /// - Returns: The count.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails.
    public func recordCount(kind: String, sessionId: UUID) throws -> Int {
        try database.read { connection in
            let row = try connection.query(
                "SELECT count(*) FROM records WHERE session_id = ? AND kind = ?", [.uuid(sessionId), .text(kind)])
            return Int(try row.first?.int64(0) ?? 0)
        }
    }

    // MARK: - Checkpoint

    /// Moves a session's checkpoint on its own (prefer passing it to `appendBatch` with the epoch's records).
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - processedUntil: The end of the last fully processed stretch of input.
    ///   - sampleIndex: The index of the next input sample (at the analysis rate) the pipeline needs.
    /// - Throws: `SleepCycleSdkError.analysisNotActive` when the session is not journaled;
    ///   `storageFailure` when writing fails.
    public func setCheckpoint(sessionId: UUID, processedUntil: Date, sampleIndex: Int64) throws {
        try database.write { connection in
            guard try exists(sessionId, connection) else { throw SleepCycleSdkError.analysisNotActive }
            let checkpoint = JournalCheckpoint(processedUntil: processedUntil, sampleIndex: sampleIndex)
            try write(checkpoint, sessionId: sessionId, connection)
        }
    }

    /// A session's checkpoint, or nil if none was set (or the session is not journaled).
    ///
    /// - Parameter sessionId: The session.
    /// - Returns: The checkpoint, or nil.
    /// - Throws: `SleepCycleSdkError.storageFailure` when reading fails.
    public func checkpoint(sessionId: UUID) throws -> JournalCheckpoint? {
        try database.read { connection in
            guard
                let row = try connection.query(
                    "SELECT processed_until, sample_index FROM sessions WHERE session_id = ?", [.uuid(sessionId)]
                ).first, !row.isNull(0), !row.isNull(1)
            else { return nil }
            return JournalCheckpoint(processedUntil: try row.date(0), sampleIndex: try row.int64(1))
        }
    }

    // MARK: - Helpers (called with the connection held)

    private func exists(_ sessionId: UUID, _ connection: SQLiteConnection) throws -> Bool {
        try !connection.query("SELECT 1 FROM sessions WHERE session_id = ?", [.uuid(sessionId)]).isEmpty
    }

    private func session(_ sessionId: UUID, _ connection: SQLiteConnection) throws -> JournalSession? {
        let row = try connection.query("SELECT record FROM sessions WHERE session_id = ?", [.uuid(sessionId)]).first
        return try row.map {
            try PersistenceCoding.decode(JournalSession.self, from: try $0.blob(0), what: "a session record")
        }
    }

    private func write(_ checkpoint: JournalCheckpoint, sessionId: UUID, _ connection: SQLiteConnection) throws {
        try connection.execute(
            "UPDATE sessions SET processed_until = ?, sample_index = ? WHERE session_id = ?",
            [.date(checkpoint.processedUntil), .integer(checkpoint.sampleIndex), .uuid(sessionId)])
    }
}

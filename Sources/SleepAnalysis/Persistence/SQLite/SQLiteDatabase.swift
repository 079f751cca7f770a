import CSQLite
import Foundation
import Synchronization

/// A SQLite database file opened for reading and writing, safe to share between threads and tasks.
///
/// Opening sets write-ahead logging (`journal_mode=WAL`), `synchronous=NORMAL` and a busy timeout: a
/// committed transaction survives the process being killed at any moment (the WAL is in the operating
/// system's hands once `COMMIT` returns); only a power cut may lose the last few commits, never consistency.
///
/// Thread safety: SQLite's connection handle and our cache of prepared statements are plain mutable state, kept
/// inside a mutex; every access goes through `read` or `write`, which hold it for the whole closure, so at most
/// one thread touches the connection at a time. The connection is handed to the closure and must not escape it.
final class SQLiteDatabase: Sendable {
    /// SQLite's "datatype mismatch" code, used for rows whose columns do not have the expected type.
    static let mismatchCode: Int32 = SQLITE_MISMATCH

    /// Where the database lives.
    let url: URL
    /// True when the file was opened for reading only (`init(readingOnly:)`).
    let isReadOnly: Bool

    private let connection: Mutex<SQLiteConnection>

    /// Opens (creating if needed, with mode 0600) the database at `url`, creating its directory too.
    ///
    /// - Parameters:
    ///   - url: The database file.
    ///   - busyTimeoutMilliseconds: How long a statement waits for another connection's lock before failing.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the directory or the file cannot be opened, or the
    ///   file is not a SQLite database.
    init(url: URL, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        self.url = url
        isReadOnly = false
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw SleepCycleSdkError.storageFailure(
                "cannot create the directory of \(url.path): \(error.localizedDescription)")
        }
        // Sleep data is personal: a new database is readable by its owner only. SQLite gives its -wal and
        // -shm files the database file's mode, so creating the empty file first is enough. `open` with
        // O_CREAT and without O_TRUNC never replaces a file another process created and opened a moment ago
        // (FileManager.createFile writes a temporary file and renames it over whatever is there).
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw SleepCycleSdkError.storageFailure("cannot open \(url.path) for writing: \(reason)")
        }
        close(descriptor)
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(url.path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map(Self.describe) ?? "out of memory"
            sqlite3_close_v2(handle)
            throw Self.storageError(code: code, message: message, context: "opening \(url.path)")
        }
        let connection = SQLiteConnection(handle: handle, path: url.path)
        do {
            try connection.check(sqlite3_busy_timeout(handle, busyTimeoutMilliseconds), "setting the busy timeout")
            try Self.enableWriteAheadLogging(connection, handle: handle, patience: busyTimeoutMilliseconds)
            try connection.execute("PRAGMA synchronous=NORMAL")
            try connection.execute("PRAGMA foreign_keys=ON")
        } catch {
            connection.close()
            throw error
        }
        self.connection = Mutex(connection)
    }

    /// Opens an existing database for reading only, without creating or changing any file; this works on a
    /// read-only file and in a read-only directory too (see `SQLiteReadOnlyOpening`). Writes then fail.
    ///
    /// - Parameters:
    ///   - url: The database file.
    ///   - busyTimeoutMilliseconds: How long a read waits for another connection's lock before failing.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the file is missing, unreadable or not a database.
    init(readingOnly url: URL, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        self.url = url
        isReadOnly = true
        let handle = try SQLiteReadOnlyOpening.open(url, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        connection = Mutex(SQLiteConnection(handle: handle, path: url.path))
    }

    deinit {
        connection.withLock { $0.close() }
    }

    /// Switches the file to write-ahead logging. While another connection is creating or switching the same
    /// new file, SQLite answers "database is locked" at once, without calling the busy handler (or leaves the
    /// old mode in place), so two processes opening a fresh database together would otherwise fail; this
    /// retries for `patience`.
    private static func enableWriteAheadLogging(
        _ connection: SQLiteConnection, handle: OpaquePointer, patience milliseconds: Int32
    ) throws {
        let deadline = Date().addingTimeInterval(Double(milliseconds) / 1_000)
        while true {
            let failure: any Error
            do {
                let mode = try connection.query("PRAGMA journal_mode=WAL").first.map { try $0.text(0) }
                if mode?.lowercased() == "wal" { return }
                failure = storageError(
                    code: SQLITE_ERROR, message: "journal mode is \(mode ?? "unknown")", context: "enabling WAL")
            } catch {
                let code = sqlite3_errcode(handle) & 0xff
                guard code == SQLITE_BUSY || code == SQLITE_LOCKED else { throw error }
                failure = error
            }
            guard Date() < deadline else { throw failure }
            usleep(2_000)
        }
    }

    /// Runs `body` inside one read transaction (`BEGIN DEFERRED`): every query sees the same snapshot, even
    /// while another process writes.
    ///
    /// - Parameter body: The work; it must not keep the connection, nor call `read` or `write` again.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or `storageFailure` when begin or commit fails.
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    /// Runs `body` inside one write transaction (`BEGIN IMMEDIATE`): all of it commits, or none of it.
    ///
    /// - Parameter body: The work; it must not keep the connection, nor call `read` or `write` again.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (after rolling back), or `storageFailure` when begin or commit fails.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Writes a consistent copy of the database to `url` (`VACUUM INTO`, which runs outside a transaction).
    ///
    /// - Throws: `storageFailure` when the copy cannot be written.
    func copy(to url: URL) throws {
        try connection.withLock { try $0.execute("VACUUM INTO ?", [.text(url.path)]) }
    }

    private func transaction<T>(_ begin: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { connection in
            try connection.execute(begin)
            do {
                let value = try body(connection)
                try connection.execute("COMMIT")
                return value
            } catch {
                connection.rollbackQuietly()
                throw error
            }
        }
    }

    /// Runs SQLite's quick integrity check over the whole file.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` (reported as corruption) when the check finds damage.
    func checkIntegrity() throws {
        let rows = try read { try $0.query("PRAGMA quick_check") }
        let problems = try rows.map { try $0.text(0) }.filter { $0 != "ok" }
        guard problems.isEmpty else {
            throw Self.storageError(
                code: SQLITE_CORRUPT, message: problems.prefix(3).joined(separator: "; "),
                context: "checking \(url.path)")
        }
    }

    /// Whether an error from this wrapper means the file is damaged (corrupt, or not a database at all), as
    /// opposed to busy, unwritable, or from a newer version.
    ///
    /// - Parameter error: An error thrown by this wrapper.
    /// - Returns: True for `SQLITE_CORRUPT` and `SQLITE_NOTADB` failures (recognised from the error's typed
    ///   cause, not its message).
    static func isDamage(_ error: any Error) -> Bool {
        guard case .sqlite(let code)? = (error as? SleepCycleSdkError)?.cause else { return false }
        return [SQLITE_CORRUPT, SQLITE_NOTADB].contains(code & 0xff)
    }

    /// SQLite's message for a connection's last failure, followed by the operating system's reason when a file
    /// operation failed (`sqlite3_system_errno`), e.g. "disk I/O error: No space left on device".
    ///
    /// - Parameter handle: The connection.
    /// - Returns: The message.
    static func describe(_ handle: OpaquePointer) -> String {
        let message = String(cString: sqlite3_errmsg(handle))
        let code = sqlite3_errcode(handle) & 0xff
        let system = sqlite3_system_errno(handle)
        guard system != 0, [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_READONLY].contains(code) else {
            return message
        }
        return "\(message): \(String(cString: strerror(system)))"
    }

    /// The one place a SQLite failure becomes an SDK error.
    ///
    /// - Parameters:
    ///   - code: The SQLite result code.
    ///   - message: SQLite's message (`sqlite3_errmsg`) or our own description.
    ///   - context: What we were doing.
    /// - Returns: `SleepCycleSdkError.storageFailure` carrying all three, with the code as its typed cause
    ///   (`SQLITE_NOMEM` as ``SleepCycleSdkError/Cause/outOfMemory``).
    static func storageError(code: Int32, message: String, context: String) -> SleepCycleSdkError {
        let name = String(cString: sqlite3_errstr(code))
        let cause: SleepCycleSdkError.Cause = code & 0xff == SQLITE_NOMEM ? .outOfMemory : .sqlite(resultCode: code)
        return .storageFailure(.init("\(context): \(message) (SQLite \(code), \(name))", cause: cause))
    }
}

import CSQLite
import Foundation

/// Opens an existing SQLite file for reading only, also where nothing can be written: a read-only file, or a
/// file in a read-only directory, where SQLite cannot create the `-wal` and `-shm` files a write-ahead-logged
/// database is read through.
///
/// The first attempt is a plain `SQLITE_OPEN_READONLY` connection (it sees other processes' commits). When that
/// cannot read the schema, the file is opened again as `immutable=1`: SQLite then reads the main file alone,
/// without locks or a WAL, which is what a file nobody can write holds.
enum SQLiteReadOnlyOpening {
    /// Opens `url` read-only.
    ///
    /// - Parameters:
    ///   - url: The database file; it must exist.
    ///   - busyTimeoutMilliseconds: How long a read waits for a writer's lock.
    /// - Returns: An open handle whose schema was read.
    /// - Throws: `SleepCycleSdkError.storageFailure` naming the file when it is missing or cannot be read.
    static func open(_ url: URL, busyTimeoutMilliseconds: Int32) throws -> OpaquePointer {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw SleepCycleSdkError.storageFailure("cannot open \(url.path) for reading: there is no such file")
        }
        let failure: Failure
        switch attempt(url.path, uri: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds) {
        case .success(let handle): return handle
        case .failure(let error): failure = error
        }
        // Only a file SQLite cannot open beside its -wal and -shm is read as immutable; a busy or damaged file
        // is reported as it is.
        guard failure.code == SQLITE_CANTOPEN || failure.code == SQLITE_READONLY else { throw failure.error }
        let encoded = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? url.path
        let immutable = attempt(
            "file:\(encoded)?immutable=1", uri: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        guard case .success(let handle) = immutable else { throw failure.error }
        return handle
    }

    /// Why an attempt failed: SQLite's primary result code, and the error to report.
    private struct Failure: Error {
        /// The primary result code.
        var code: Int32
        /// The storage failure naming the file.
        var error: SleepCycleSdkError
    }

    /// One attempt: opens `name` and reads the schema, which is where a missing `-shm` shows.
    private static func attempt(
        _ name: String, uri: Bool, busyTimeoutMilliseconds: Int32
    ) -> Result<OpaquePointer, Failure> {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | (uri ? SQLITE_OPEN_URI : 0)
        var code = sqlite3_open_v2(name, &handle, flags, nil)
        if code == SQLITE_OK, let handle {
            sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
            code = sqlite3_exec(handle, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
            if code == SQLITE_OK { return .success(handle) }
        }
        let message = handle.map(SQLiteDatabase.describe) ?? "out of memory"
        sqlite3_close_v2(handle)
        let error = SQLiteDatabase.storageError(code: code, message: message, context: "opening \(name) for reading")
        return .failure(Failure(code: code & 0xff, error: error))
    }
}

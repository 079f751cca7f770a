import CSQLite
import Foundation

/// The SQLite connection inside a `SQLiteDatabase`: prepares, binds, steps and reads statements.
///
/// Not `Sendable`: only `SQLiteDatabase` holds one, and hands it out under its lock.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private let path: String
    private var statements: [String: OpaquePointer] = [:]
    private var isClosed = false

    /// Wraps an open handle.
    init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    /// Runs one statement, discarding any rows.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement with `?` placeholders.
    ///   - values: The values for the placeholders, in order.
    /// - Throws: `SleepCycleSdkError.storageFailure` when preparing, binding or stepping fails.
    func execute(_ sql: String, _ values: [SQLiteValue] = []) throws {
        try run(sql, values) { _ in }
    }

    /// Runs one query and returns all its rows.
    ///
    /// - Parameters:
    ///   - sql: One SQL statement with `?` placeholders.
    ///   - values: The values for the placeholders, in order.
    /// - Returns: Every row, in the order SQLite produced them.
    /// - Throws: `SleepCycleSdkError.storageFailure` when preparing, binding or stepping fails.
    func query(_ sql: String, _ values: [SQLiteValue] = []) throws -> [SQLiteRow] {
        var rows: [SQLiteRow] = []
        try run(sql, values) { rows.append($0) }
        return rows
    }

    /// Runs several statements separated by semicolons, without parameters (schema scripts).
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when any statement fails.
    func executeScript(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? errorMessage
            sqlite3_free(message)
            throw SQLiteDatabase.storageError(code: code, message: text, context: "running a script on \(path)")
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The row id of the last successful INSERT.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Throws unless `code` is `SQLITE_OK` (or one of `accepted`).
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` with SQLite's message and `context`.
    func check(_ code: Int32, _ context: @autoclosure () -> String, accepted: Set<Int32> = []) throws {
        guard code != SQLITE_OK, !accepted.contains(code) else { return }
        throw SQLiteDatabase.storageError(code: code, message: errorMessage, context: "\(context()) on \(path)")
    }

    /// SQLite's message for the last failure, with the operating system's reason when a file operation failed
    /// (e.g. "disk I/O error: No space left on device").
    var errorMessage: String {
        SQLiteDatabase.describe(handle)
    }

    /// Rolls back an open transaction, ignoring the result (used while another error propagates).
    func rollbackQuietly() {
        if sqlite3_get_autocommit(handle) == 0 {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        }
    }

    /// Finalizes the cached statements and closes the connection; later calls are no-ops.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        for statement in statements.values {
            sqlite3_finalize(statement)
        }
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: - Statements

    private func run(_ sql: String, _ values: [SQLiteValue], onRow: (SQLiteRow) -> Void) throws {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(values, to: statement, sql: sql)
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                try check(code, "executing \(sql)")
                return
            }
            onRow(row(of: statement))
        }
    }

    /// A prepared statement for `sql`, compiled once and reused.
    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        try check(code, "preparing \(sql)")
        guard let statement else {
            throw SQLiteDatabase.storageError(code: SQLITE_MISUSE, message: "empty statement", context: sql)
        }
        statements[sql] = statement
        return statement
    }

    private func bind(_ values: [SQLiteValue], to statement: OpaquePointer, sql: String) throws {
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == values.count else {
            throw SQLiteDatabase.storageError(
                code: SQLITE_RANGE, message: "\(values.count) values for \(expected) parameters", context: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(statement, index)
            case .integer(let integer):
                code = sqlite3_bind_int64(statement, index, integer)
            case .real(let real):
                code = sqlite3_bind_double(statement, index, real)
            case .text(let text):
                code = sqlite3_bind_text64(
                    statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
            case .blob(let data):
                code = data.withUnsafeBytes { bytes in
                    // A zero-length blob still needs a non-NULL pointer, or SQLite stores NULL.
                    sqlite3_bind_blob64(
                        statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count),
                        Self.transient)
                }
            }
            try check(code, "binding parameter \(index) of \(sql)")
        }
    }

    private func row(of statement: OpaquePointer) -> SQLiteRow {
        let count = sqlite3_column_count(statement)
        var values: [SQLiteValue] = []
        values.reserveCapacity(Int(count))
        for column in 0..<count {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER:
                values.append(.integer(sqlite3_column_int64(statement, column)))
            case SQLITE_FLOAT:
                values.append(.real(sqlite3_column_double(statement, column)))
            case SQLITE_TEXT:
                let text = sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                values.append(.text(text))
            case SQLITE_BLOB:
                let length = Int(sqlite3_column_bytes(statement, column))
                let bytes = sqlite3_column_blob(statement, column)
                values.append(.blob(bytes.map { Data(bytes: $0, count: length) } ?? Data()))
            default:
                values.append(.null)
            }
        }
        return SQLiteRow(values: values)
    }

    /// SQLite's `SQLITE_TRANSIENT` destructor: SQLite copies the bound bytes before the call returns.
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    }
}

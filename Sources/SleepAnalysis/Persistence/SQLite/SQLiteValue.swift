import Foundation

/// One value bound into or read out of SQLite: the five storage classes.
enum SQLiteValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob(Data)

    /// A date as seconds since 1970 (the representation every table here uses, so ranges compare as numbers).
    static func date(_ date: Date) -> SQLiteValue { .real(date.timeIntervalSince1970) }

    /// A UUID as its canonical upper-case string.
    static func uuid(_ uuid: UUID) -> SQLiteValue { .text(uuid.uuidString) }

    /// A value that may be absent: NULL when nil.
    static func optional(_ value: SQLiteValue?) -> SQLiteValue { value ?? .null }
}

/// One result row, read eagerly out of a statement so that it outlives the statement's next step.
struct SQLiteRow: Sendable, Hashable {
    /// The row's values, in the order of the SELECT list.
    var values: [SQLiteValue]

    /// The value of column `index` (NULL past the end).
    subscript(index: Int) -> SQLiteValue { values.indices.contains(index) ? values[index] : .null }

    /// Whether column `index` is NULL.
    func isNull(_ index: Int) -> Bool { self[index] == .null }

    /// Column `index` as an integer.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the column holds another type.
    func int64(_ index: Int) throws -> Int64 {
        guard case .integer(let value) = self[index] else { throw mismatch(index, expected: "integer") }
        return value
    }

    /// Column `index` as a floating-point number (integers are widened).
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the column holds another type.
    func double(_ index: Int) throws -> Double {
        switch self[index] {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        default: throw mismatch(index, expected: "real")
        }
    }

    /// Column `index` as text.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the column holds another type.
    func text(_ index: Int) throws -> String {
        guard case .text(let value) = self[index] else { throw mismatch(index, expected: "text") }
        return value
    }

    /// Column `index` as bytes (text is returned as its UTF-8 bytes).
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the column holds another type.
    func blob(_ index: Int) throws -> Data {
        switch self[index] {
        case .blob(let value): return value
        case .text(let value): return Data(value.utf8)
        default: throw mismatch(index, expected: "blob")
        }
    }

    /// Column `index` as a date stored as seconds since 1970.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the column is not a number.
    func date(_ index: Int) throws -> Date { Date(timeIntervalSince1970: try double(index)) }

    /// Column `index` as a UUID stored as text.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the column is not a valid UUID string.
    func uuid(_ index: Int) throws -> UUID {
        let string = try text(index)
        guard let uuid = UUID(uuidString: string) else { throw mismatch(index, expected: "UUID text") }
        return uuid
    }

    private func mismatch(_ index: Int, expected: String) -> SleepCycleSdkError {
        SQLiteDatabase.storageError(
            code: SQLiteDatabase.mismatchCode, message: "column \(index) is \(self[index]), expected \(expected)",
            context: "reading a row")
    }
}

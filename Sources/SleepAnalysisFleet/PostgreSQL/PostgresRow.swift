import Foundation
import SleepAnalysis

/// One result row in PostgreSQL's text format, read eagerly out of a result so that it outlives it.
struct PostgresRow: Sendable, Hashable {
    /// The row's values (nil for SQL NULL), in the order of the SELECT list.
    var values: [String?]

    /// The text of column `index` (nil for NULL or past the end).
    subscript(index: Int) -> String? { values.indices.contains(index) ? values[index] : nil }

    /// Column `index`, which must not be NULL.
    ///
    /// - Throws: `FleetDatabaseError` (`unexpectedResult`) for NULL.
    func text(_ index: Int) throws -> String {
        guard let value = self[index] else { throw mismatch(index, expected: "a value") }
        return value
    }

    /// Column `index` as an integer.
    ///
    /// - Throws: `FleetDatabaseError` (`unexpectedResult`) for NULL or text that is not an integer.
    func int64(_ index: Int) throws -> Int64 {
        guard let value = self[index].flatMap(Int64.init) else { throw mismatch(index, expected: "an integer") }
        return value
    }

    /// Column `index` as a floating-point number.
    ///
    /// - Throws: `FleetDatabaseError` (`unexpectedResult`) for NULL or text that is not a number.
    func double(_ index: Int) throws -> Double {
        guard let value = self[index].flatMap(Double.init) else { throw mismatch(index, expected: "a number") }
        return value
    }

    /// Column `index` as a date, selected as seconds since 1970 (`extract(epoch FROM column)`), or nil for NULL.
    ///
    /// - Throws: `FleetDatabaseError` (`unexpectedResult`) for text that is not a number.
    func optionalDate(_ index: Int) throws -> Date? {
        guard self[index] != nil else { return nil }
        return Date(timeIntervalSince1970: try double(index))
    }

    /// Column `index` as a date, selected as seconds since 1970 (`extract(epoch FROM column)`).
    ///
    /// - Throws: `FleetDatabaseError` (`unexpectedResult`) for NULL or text that is not a number.
    func date(_ index: Int) throws -> Date {
        Date(timeIntervalSince1970: try double(index))
    }

    /// Column `index` as a UUID.
    ///
    /// - Throws: `FleetDatabaseError` (`unexpectedResult`) for NULL or text that is not a UUID.
    func uuid(_ index: Int) throws -> UUID {
        guard let value = self[index].flatMap(UUID.init(uuidString:)) else { throw mismatch(index, expected: "a UUID") }
        return value
    }

    private func mismatch(_ index: Int, expected: String) -> FleetDatabaseError {
        FleetDatabaseError(
            kind: .unexpectedResult,
            message: "column \(index) holds \(self[index].map { "'\($0)'" } ?? "NULL"), not \(expected)")
    }
}

/// What a statement returned: its rows and how many rows it changed.
struct PostgresResult: Sendable, Hashable {
    /// The rows (empty for statements that return none).
    var rows: [PostgresRow]
    /// Rows inserted, updated or deleted (0 for other statements).
    var affectedRows: Int
}

/// A statement parameter in PostgreSQL's text format: nil is SQL NULL.
typealias PostgresParameter = String?

/// Text-format parameters for common Swift values.
enum PostgresParameters {
    /// A date as seconds since 1970, for `to_timestamp($n::float8)`.
    static func seconds(_ date: Date) -> String { String(date.timeIntervalSince1970) }

    /// An interval as seconds, for `make_interval(secs => $n::float8)`.
    static func seconds(_ interval: TimeInterval) -> String { String(interval) }
}

import CommandLineKit
import Foundation
import SleepAnalysis

/// The `--from DATE` and `--to DATE` options of the store commands, read into a date range.
///
/// A DATE is ISO 8601: a day (`2026-11-01`, midnight in the local time zone; for `--to`, the whole day is
/// included) or a time with an offset (`2026-11-01T22:00:00Z`, `2026-11-01T22:00:00+09:00`), in 1970...9999.
enum DateRangeArguments {
    /// The option names, for `ArgumentSpecification.options`.
    static let options: Set<String> = ["from", "to"]

    /// The range the options select: unbounded on a side whose option is absent.
    ///
    /// - Parameters:
    ///   - parsed: The parsed command line.
    ///   - timeZone: The zone that day-only dates are read in.
    /// - Returns: The range.
    /// - Throws: A usage `CommandLineError` for a malformed date or a range that ends before it starts.
    static func range(_ parsed: ParsedArguments, timeZone: TimeZone = .current) throws -> DateInterval {
        let start = try parsed.option("from").map { try date($0, endOfDay: false, timeZone: timeZone, parsed) }
        let end = try parsed.option("to").map { try date($0, endOfDay: true, timeZone: timeZone, parsed) }
        let range = (start ?? .distantPast, end ?? .distantFuture)
        guard range.0 <= range.1 else {
            throw CommandLineError.usage("--to is before --from", usage: parsed.usage)
        }
        return DateInterval(start: range.0, end: range.1)
    }

    private static func date(
        _ text: String, endOfDay: Bool, timeZone: TimeZone, _ parsed: ParsedArguments
    ) throws -> Date {
        let parser = ISO8601DateTimeParser(syntax: .timestamp, defaultTimeZone: timeZone)
        if let day = parser.day(from: text) {
            guard endOfDay else { return day }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.date(byAdding: .day, value: 1, to: day) ?? day
        }
        if let date = parser.date(from: text) { return date }
        throw CommandLineError.usage(
            "'\(text)' is not an ISO 8601 day (2026-11-01) or time (2026-11-01T22:00:00Z)", usage: parsed.usage)
    }
}

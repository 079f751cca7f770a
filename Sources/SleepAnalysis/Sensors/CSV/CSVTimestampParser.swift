import Foundation

/// Turns a CSV timestamp field into a date.
///
/// Three spellings are accepted:
/// - seconds relative to the source's start time (`12.5`), when the value is at most 1e9;
/// - seconds since the Unix epoch (`1706742000.25`), when the value is above 1e9 (after 2001-09-09);
/// - ISO 8601 with a zone designator (`ISO8601Syntax.timestamp`): `2024-01-31T23:00:00Z`,
///   `2024-01-31 23:00:00.250+01:00`, `…+0100`, years 1970...9999. A date without a zone is a local time in the
///   zone the caller gives (`localZone`, the command line's `--timezone`), and rejected without one: it would
///   silently depend on the machine's time zone. Across a clock change a local time of the repeated hour has two
///   instants (`repeatedLocalTime`, resolved by the reader from the rows' order) and one of the skipped hour none
///   (`skippedLocalTime`, an error naming the line).
enum CSVTimestampParser {
    /// Values above this many seconds are Unix epoch times; at or below, offsets from the start time.
    static let absoluteThreshold: Double = 1e9

    /// The outcome of parsing one field.
    enum Outcome: Equatable {
        /// A date.
        case date(Date)
        /// A number that is NaN or infinite.
        case nonFinite
        /// Neither a number nor an ISO 8601 date with a zone.
        case unparsable
        /// A local time in the hour repeated when the clocks went back: both instants (the reader takes the one
        /// that keeps the rows in order).
        case repeatedLocalTime(earlier: Date, later: Date)
        /// A local time in the hour skipped when the clocks went forward: no instant.
        case skippedLocalTime
    }

    /// Parses `text` (already trimmed); relative seconds count from `startTime`; zoneless dates are local times in
    /// `localZone` (rejected when it is nil).
    static func parse(_ text: Substring, startTime: Date, localZone: TimeZone? = nil) -> Outcome {
        var copy = String(text)
        return copy.withUTF8 { parse($0, startTime: startTime, localZone: localZone) }
    }

    /// Parses the field's bytes (already trimmed); relative seconds count from `startTime`; zoneless dates are
    /// local times in `localZone` (rejected when it is nil).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, startTime: Date, localZone: TimeZone? = nil) -> Outcome {
        if let seconds = CSVNumberParser.parse(bytes) {
            guard seconds.isFinite else { return .nonFinite }
            if seconds > absoluteThreshold { return .date(Date(timeIntervalSince1970: seconds)) }
            return .date(startTime.addingTimeInterval(seconds))
        }
        if let localZone {
            switch ISO8601DateTimeParser.localReading(bytes, localZone: localZone) {
            case .instant(let date): return .date(date)
            case .repeated(let earlier, let later): return .repeatedLocalTime(earlier: earlier, later: later)
            case .skipped: return .skippedLocalTime
            case nil: return .unparsable
            }
        }
        if let date = ISO8601DateTimeParser.timestamp(bytes) { return .date(date) }
        return .unparsable
    }
}

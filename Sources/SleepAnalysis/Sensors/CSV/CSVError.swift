import Foundation

/// Why a sensor CSV file was rejected, with the file and the line (1-based; 0 when the file as a whole is at
/// fault). Converted to `SleepCycleSdkError.invalidInput` in one place, `sdkError`.
package struct CSVError: Error, Hashable, CustomStringConvertible {
    /// What went wrong.
    enum Reason: Hashable {
        /// The file does not exist.
        case missingFile
        /// The file exists but cannot be read (a directory, no permission, an I/O error).
        case unreadable(String)
        /// The row cannot be split into fields (invalid UTF-8, an empty field).
        case malformedRow(String)
        /// The row has `found` fields where `expected` were expected.
        case wrongColumnCount(expected: Int, found: Int)
        /// A value is not a number.
        case unparsableNumber(column: String, text: String)
        /// A value is NaN or infinite.
        case nonFiniteValue(column: String, text: String)
        /// A value is a number but outside what the column allows (a negative heart rate).
        case valueOutOfRange(column: String, value: Double)
        /// The timestamp is neither seconds nor an ISO 8601 date with a zone.
        case unparsableTimestamp(String)
        /// The timestamp is too far from the source's start to belong to the night.
        case timestampOutOfRange(Date, start: Date)
        /// The row is not part of the same night as the rows before it: `gap` after the previous row (more than
        /// `SensorCSVReader.maximumNightGap`) or `span` after the night's start (more than `maximumNightSpan`).
        case notOneNight(gap: TimeInterval?, span: TimeInterval?, previousLine: Int?)
        /// A local time of the hour skipped when the clocks went forward in `zone`: it never happened.
        case skippedLocalTime(String, zone: String)
        /// The file has no data row (empty, comments only, or a header only).
        case noDataRows(hasHeader: Bool)
        /// The timestamp is earlier than the previous row's.
        case timestampWentBackwards(previous: Date, current: Date)
        /// A units statement names a unit this reader does not know.
        case unknownUnit(String)
        /// The file's units statements, or the file and the caller, disagree.
        case conflictingUnits(String)
    }

    /// The file's path.
    let path: String
    /// The 1-based line number, 0 for the whole file.
    let line: Int
    /// What went wrong.
    let reason: Reason

    /// The error as the SDK reports it.
    package var sdkError: SleepCycleSdkError { .invalidInput(description) }

    /// `path:line: reason`, for logs and users.
    package var description: String {
        let location = line > 0 ? "\(MessageText.escaped(path)) line \(line)" : MessageText.escaped(path)
        return "\(location): \(reasonText)"
    }

    /// A field's text for a message: at most 80 characters, control characters escaped.
    private static func shown(_ text: String) -> String {
        MessageText.escaped(text.count > 80 ? text.prefix(80) + "…" : text)
    }

    private var reasonText: String {
        switch reason {
        case .missingFile:
            return "no such file"
        case .unreadable(let why):
            return "cannot be read (\(why))"
        case .malformedRow(let why):
            return "malformed row (\(why))"
        case .wrongColumnCount(let expected, let found):
            return "\(found) columns where \(expected) were expected"
        case .unparsableNumber(let column, let text):
            return "'\(Self.shown(text))' in column '\(column)' is not a number"
        case .nonFiniteValue(let column, let text):
            return "'\(Self.shown(text))' in column '\(column)' is not a finite number"
        case .valueOutOfRange(let column, let value):
            return "\(value) is out of range for column '\(column)'"
        case .unparsableTimestamp(let text):
            return
                "'\(Self.shown(text))' is not a timestamp (seconds, or ISO 8601 with a zone such as 2024-01-31T23:00:00Z; "
                + "local times need the file's time zone: --timezone on the command line)"
        case .timestampOutOfRange(let timestamp, let start):
            let days = timestamp.timeIntervalSince(start) / 86_400
            let side = days < 0 ? "before" : "after"
            return "timestamp \(timestamp.formatted(.iso8601)) is \(String(format: "%.1f", abs(days))) days \(side) "
                + "the recording's start \(start.formatted(.iso8601)); rows must lie between 1 day before and 31 days "
                + "after it (check the start time given, e.g. --start, and the file's timestamps)"
        case .notOneNight(let gap, let span, let previousLine):
            let hours = { (seconds: TimeInterval) in String(format: "%.1f", seconds / 3_600) }
            let why =
                if let gap {
                    "it comes \(hours(gap)) hours after the row before it (line \(previousLine ?? 0)), more than the "
                        + "\(hours(SensorCSVReader.maximumNightGap))-hour gap one night may hold"
                } else {
                    "it comes \(hours(span ?? 0)) hours after the night's start, more than the "
                        + "\(hours(SensorCSVReader.maximumNightSpan)) hours one night may span"
                }
            return "not one night: \(why). A recording of several nights: analyse it with --split-nights (each "
                + "night's rest period on its own); else check the file's timestamps and the start time given"
        case .skippedLocalTime(let text, let zone):
            return "'\(Self.shown(text))' never happened in \(zone): the clocks skipped that hour (summer time began); "
                + "check the file's time zone (--timezone) and its timestamps"
        case .noDataRows(let hasHeader):
            return hasHeader ? "a header but no data row" : "no data row (the file is empty or only comments)"
        case .timestampWentBackwards(let previous, let current):
            let gap = previous.timeIntervalSince(current)
            return "timestamp goes backwards by \(gap) s (rows must be in time order)"
        case .unknownUnit(let text):
            return "unknown unit '\(text)' (expected g or m/s^2)"
        case .conflictingUnits(let why):
            return "conflicting units (\(why))"
        }
    }
}

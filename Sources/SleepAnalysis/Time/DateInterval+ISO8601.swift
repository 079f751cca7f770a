import Foundation

extension DateInterval {
    /// Parses an ISO 8601 time interval, such as a wake-up window given on the command line.
    ///
    /// Accepted forms (extended format):
    /// - `START/END`: `2026-12-01T06:30:00+01:00/2026-12-01T07:00:00+01:00`; END may omit its date
    ///   (`2026-12-01T06:30Z/07:00Z`), which it then takes from START (and START's zone if it has none);
    /// - `START/DURATION`: `2026-12-01T06:30:00Z/PT30M`;
    /// - `DURATION/END`: `PT30M/2026-12-01T07:00:00Z`.
    ///
    /// Date-times without a zone are read in `timeZone`.
    ///
    /// - Parameters:
    ///   - text: The interval.
    ///   - timeZone: The zone of date-times written without one; the current zone by default.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the text is not such an interval, a date does not
    ///   exist, or the end is before the start.
    public init(iso8601Interval text: String, timeZone: TimeZone = .current) throws {
        let parser = ISO8601DateTimeParser(defaultTimeZone: timeZone)
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        func invalid(_ why: String) -> SleepCycleSdkError {
            .invalidInput("'\(text)' is not an ISO 8601 interval START/END, START/DURATION or DURATION/END: \(why)")
        }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw invalid("expected two parts separated by one '/'")
        }
        let start: Date
        let end: Date
        if let duration = parser.parseDuration(parts[0]) {
            guard let endTime = parser.parseDateTime(parts[1]), let resolvedEnd = parser.resolve(endTime) else {
                throw invalid("'\(parts[1])' is not a date-time such as 2026-12-01T07:00:00Z")
            }
            guard let moved = parser.move(resolvedEnd, by: duration, sign: -1, in: endTime.timeZone ?? timeZone)
            else { throw invalid(Self.durationRule) }
            (start, end) = (moved, resolvedEnd)
        } else {
            guard let startTime = parser.parseDateTime(parts[0]), let resolvedStart = parser.resolve(startTime)
            else { throw invalid("'\(parts[0])' is not a date-time such as 2026-12-01T06:30:00Z") }
            if let duration = parser.parseDuration(parts[1]) {
                guard let moved = parser.move(resolvedStart, by: duration, sign: 1, in: startTime.timeZone ?? timeZone)
                else { throw invalid(Self.durationRule) }
                (start, end) = (resolvedStart, moved)
            } else {
                guard let endTime = parser.parseDateTime(parts[1], allowTimeOnly: true),
                    let resolvedEnd = parser.resolve(endTime, reference: startTime)
                else { throw invalid("'\(parts[1])' is not a date-time, time or duration") }
                (start, end) = (resolvedStart, resolvedEnd)
            }
        }
        guard end >= start else { throw invalid("the end is before the start") }
        self.init(start: start, end: end)
    }

    /// What a duration must be for `init(iso8601Interval:timeZone:)`, for its message.
    private static let durationRule =
        "years and months must be whole, and the duration at most \(Int(ISO8601DateTimeParser.Duration.maximumYears)) years"
}

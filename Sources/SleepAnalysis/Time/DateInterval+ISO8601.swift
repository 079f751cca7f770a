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
    /// Years must be in 1970...9999 and zone offsets at most 18:00.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when the text is not such an interval, a date does not
    ///   exist, or the end is before the start.
    public init(iso8601Interval text: String, timeZone: TimeZone = .current) throws {
        let parser = ISO8601DateTimeParser(syntax: .interval, defaultTimeZone: timeZone)
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        func invalid(_ why: String) -> SleepCycleSdkError {
            .invalidInput("'\(text)' is not an ISO 8601 interval START/END, START/DURATION or DURATION/END: \(why)")
        }
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw invalid("expected two parts separated by one '/'")
        }
        /// A date-time and the zone its durations count in (its own, else `timeZone`); nil when it is none.
        func dateTime(_ part: Substring, allowTimeOnly: Bool = false) throws -> (ISO8601DateTime, TimeZone)? {
            guard let value = parser.parse(part, allowTimeOnly: allowTimeOnly) else { return nil }
            guard let offset = value.zoneOffsetSeconds else { return (value, timeZone) }
            guard let zone = TimeZone(secondsFromGMT: offset) else { throw invalid("zone offsets go up to 18:00") }
            return (value, zone)
        }
        let durationMessage = "years and months must be whole, and the duration under 10 000 years"
        let start: Date
        let end: Date
        if let duration = ISO8601Duration(parts[0]) {
            guard let (endTime, zone) = try dateTime(parts[1]), let resolvedEnd = parser.resolve(endTime) else {
                throw invalid("'\(parts[1])' is not a date-time such as 2026-12-01T07:00:00Z")
            }
            guard let moved = duration.move(resolvedEnd, sign: -1, in: zone) else { throw invalid(durationMessage) }
            (start, end) = (moved, resolvedEnd)
        } else {
            guard let (startTime, zone) = try dateTime(parts[0]), let resolvedStart = parser.resolve(startTime) else {
                throw invalid("'\(parts[0])' is not a date-time such as 2026-12-01T06:30:00Z")
            }
            if let duration = ISO8601Duration(parts[1]) {
                guard let moved = duration.move(resolvedStart, sign: 1, in: zone) else {
                    throw invalid(durationMessage)
                }
                (start, end) = (resolvedStart, moved)
            } else {
                guard let (endTime, _) = try dateTime(parts[1], allowTimeOnly: true),
                    let resolvedEnd = parser.resolve(endTime, reference: startTime)
                else { throw invalid("'\(parts[1])' is not a date-time, time or duration") }
                (start, end) = (resolvedStart, resolvedEnd)
            }
        }
        guard end >= start else { throw invalid("the end is before the start") }
        self.init(start: start, end: end)
    }
}

import Foundation

/// The package's one reader of ISO 8601 dates and date-times: CSV timestamps, wake-up intervals and the command
/// line's dates all go through it.
///
/// It reads UTF-8 bytes with one `ISO8601Scanner`:
/// - date-times `YYYY-MM-DD(T|t| )hh:mm[:ss[(.|,)fraction]][Z|z|±hh|±hh:mm|±hhmm]`, the `syntax` saying whether the
///   seconds and the zone must be written and whether `24:00` is allowed;
/// - where the caller asks, the abbreviated time-only form `hh:mm[:ss…][zone]`, whose date comes from a reference;
/// - days `YYYY-MM-DD`.
///
/// Years must be in `years` (1970...9999), days must exist in their month, the hour is below 24 (or `24:00:00`
/// where allowed), the minute below 60, the second below 61 (60 is a leap second, the next minute's first), zone
/// offsets at most 23:59. A date-time without a zone is local time in `defaultTimeZone`.
package struct ISO8601DateTimeParser: Sendable {
    /// The years accepted: none before the Unix epoch's, none with more than four digits.
    package static let years = 1970...9999

    /// Which optional parts must be written.
    package var syntax: ISO8601Syntax
    /// The zone of date-times (and days) written without one.
    package var defaultTimeZone: TimeZone

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - syntax: Which optional parts must be written.
    ///   - defaultTimeZone: The zone of date-times and days written without one; UTC by default.
    package init(syntax: ISO8601Syntax, defaultTimeZone: TimeZone = TimeZone(secondsFromGMT: 0)!) {
        self.syntax = syntax
        self.defaultTimeZone = defaultTimeZone
    }

    /// Reads a full timestamp (`ISO8601Syntax.timestamp`) straight to an instant, without any calendar object:
    /// the hot path of ISO 8601 CSV timestamps.
    ///
    /// - Parameter bytes: The text's UTF-8 bytes, already trimmed.
    /// - Returns: The instant, or nil when the text is not such a timestamp.
    package static func timestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = ISO8601Scanner(bytes)
        guard let value = dateTime(&scanner, syntax: .timestamp, allowTimeOnly: false), scanner.isAtEnd else {
            return nil
        }
        return value.instant
    }

    /// Reads a full timestamp whose zone may be left out, for files of local times: without a zone the time is
    /// a wall-clock time in `localZone`.
    ///
    /// - Parameters:
    ///   - bytes: The text's UTF-8 bytes, already trimmed.
    ///   - localZone: The zone of times written without one.
    /// - Returns: The instant, or nil when the text is not such a timestamp.
    package static func timestamp(_ bytes: UnsafeBufferPointer<UInt8>, localZone: TimeZone) -> Date? {
        var scanner = ISO8601Scanner(bytes)
        guard let value = dateTime(&scanner, syntax: .localTimestamp, allowTimeOnly: false), scanner.isAtEnd,
            let day = value.day
        else { return nil }
        if value.zoneOffsetSeconds != nil { return value.instant }
        let wallClock = Double(day.daysSinceEpoch) * 86_400 + Double(value.wholeSecondsIntoDay) + value.fraction
        return Date(timeIntervalSince1970: wallClock - Double(offset(ofWallClock: wallClock, in: localZone)))
    }

    /// What a full timestamp whose zone may be left out means in `localZone`, across clock changes.
    package enum LocalReading: Equatable {
        /// One instant (a zone was written, or the wall-clock time occurs once).
        case instant(Date)
        /// A wall-clock time that occurs twice (the hour repeated when the clocks go back): the two instants.
        case repeated(earlier: Date, later: Date)
        /// A wall-clock time that does not occur (the hour skipped when the clocks go forward).
        case skipped
    }

    /// Reads a full timestamp whose zone may be left out, telling a time in the repeated hour of a clock change
    /// (two instants) and a time in the skipped hour (none) apart from the rest.
    ///
    /// - Parameters:
    ///   - bytes: The text's UTF-8 bytes, already trimmed.
    ///   - localZone: The zone of times written without one.
    /// - Returns: The reading, or nil when the text is not such a timestamp.
    package static func localReading(_ bytes: UnsafeBufferPointer<UInt8>, localZone: TimeZone) -> LocalReading? {
        var scanner = ISO8601Scanner(bytes)
        guard let value = dateTime(&scanner, syntax: .localTimestamp, allowTimeOnly: false), scanner.isAtEnd,
            let day = value.day
        else { return nil }
        if value.zoneOffsetSeconds != nil, let instant = value.instant { return .instant(instant) }
        let wallClock = Double(day.daysSinceEpoch) * 86_400 + Double(value.wholeSecondsIntoDay) + value.fraction
        // The offsets in force half a day either side; each that maps the wall-clock time onto itself is a reading.
        let nearby = Set(
            [-43_200.0, 0, 43_200].map { localZone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock + $0)) })
        let instants = nearby.filter { offset in
            localZone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock - Double(offset))) == offset
        }.map { Date(timeIntervalSince1970: wallClock - Double($0)) }.sorted()
        switch instants.count {
        case 0: return .skipped
        case 1: return .instant(instants[0])
        default: return .repeated(earlier: instants[0], later: instants[instants.count - 1])
        }
    }

    /// The zone's offset from UTC (seconds east) at the wall-clock time `wallClock` (seconds since 1970-01-01
    /// 00:00 on that clock): guessed at the same UTC instant, then taken again at the instant it gives, so a time
    /// just after a daylight-saving change gets the new offset.
    static func offset(ofWallClock wallClock: Double, in zone: TimeZone) -> Int {
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock - Double(guess)))
    }

    /// Reads a date-time, optionally the abbreviated time-only form, without resolving it.
    ///
    /// - Parameters:
    ///   - bytes: The text's UTF-8 bytes.
    ///   - allowTimeOnly: Whether `hh:mm[:ss…][zone]` without a date is accepted.
    /// - Returns: The fields as written, or nil when the text is not such a date-time.
    package func parse(_ bytes: UnsafeBufferPointer<UInt8>, allowTimeOnly: Bool = false) -> ISO8601DateTime? {
        var scanner = ISO8601Scanner(bytes)
        guard let value = Self.dateTime(&scanner, syntax: syntax, allowTimeOnly: allowTimeOnly), scanner.isAtEnd
        else { return nil }
        return value
    }

    /// Reads a date-time, optionally the abbreviated time-only form, without resolving it.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - allowTimeOnly: Whether `hh:mm[:ss…][zone]` without a date is accepted.
    /// - Returns: The fields as written, or nil when the text is not such a date-time.
    package func parse(_ text: some StringProtocol, allowTimeOnly: Bool = false) -> ISO8601DateTime? {
        var copy = String(text)
        return copy.withUTF8 { parse($0, allowTimeOnly: allowTimeOnly) }
    }

    /// Reads a date-time and resolves it to an instant.
    ///
    /// - Parameter text: The text.
    /// - Returns: The instant, or nil when the text is not such a date-time or names a local time that does not
    ///   exist.
    package func date(from text: some StringProtocol) -> Date? {
        parse(text).flatMap { resolve($0) }
    }

    /// Reads a day, `YYYY-MM-DD`, as its first instant (midnight) in `defaultTimeZone`.
    ///
    /// - Parameter text: The text.
    /// - Returns: The day's midnight, or nil when the text is not such a day.
    package func day(from text: some StringProtocol) -> Date? {
        var copy = String(text)
        let day = copy.withUTF8 { bytes -> ISO8601DateTime.Day? in
            var scanner = ISO8601Scanner(bytes)
            guard let day = Self.day(&scanner), scanner.isAtEnd else { return nil }
            return day
        }
        return day.flatMap { midnight(of: $0, in: defaultTimeZone) }
    }

    /// Resolves a parsed date-time to an instant.
    ///
    /// - Parameters:
    ///   - value: The parsed date-time.
    ///   - reference: For the time-only form: the date-time whose date (and zone, when `value` has none) it borrows.
    /// - Returns: The instant, or nil without a date, or for a local time on a day the zone skips.
    package func resolve(_ value: ISO8601DateTime, reference: ISO8601DateTime? = nil) -> Date? {
        var complete = value
        complete.day = value.day ?? reference?.day
        complete.zoneOffsetSeconds = value.zoneOffsetSeconds ?? reference?.zoneOffsetSeconds
        guard let day = complete.day else { return nil }
        if let instant = complete.instant { return instant }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = defaultTimeZone
        guard let midnight = midnight(of: day, in: defaultTimeZone) else { return nil }
        let time = DateComponents(hour: value.hour, minute: value.minute, second: value.second)
        return calendar.date(byAdding: time, to: midnight)?.addingTimeInterval(value.fraction)
    }

    /// The first instant of `day` in `zone`; nil when the zone skips that day.
    private func midnight(of day: ISO8601DateTime.Day, in zone: TimeZone) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: day.year, month: day.month, day: day.day)
        guard let midnight = calendar.date(from: components),
            calendar.dateComponents([.year, .month, .day], from: midnight) == components
        else { return nil }
        return midnight
    }

    // MARK: - Grammar

    /// `YYYY-MM-DD`, a day that exists, in `years`.
    private static func day(_ scanner: inout ISO8601Scanner) -> ISO8601DateTime.Day? {
        guard let year = scanner.digits(exactly: 4), scanner.take("-"), let month = scanner.digits(exactly: 2),
            scanner.take("-"), let day = scanner.digits(exactly: 2),
            years.contains(year), (1...12).contains(month),
            (1...ISO8601DateTime.Day.length(ofMonth: month, year: year)).contains(day)
        else { return nil }
        return ISO8601DateTime.Day(year: year, month: month, day: day)
    }

    /// A date-time (or, where allowed, a time) up to the end of its zone; the caller checks what follows.
    private static func dateTime(
        _ scanner: inout ISO8601Scanner, syntax: ISO8601Syntax, allowTimeOnly: Bool
    ) -> ISO8601DateTime? {
        var day: ISO8601DateTime.Day?
        var lookahead = scanner  // four digits start a date; two digits and a colon, a time
        if lookahead.digits(exactly: 4) != nil {
            guard let date = Self.day(&scanner), scanner.takeLetter("T") || scanner.take(" ") else { return nil }
            day = date
        } else if !allowTimeOnly {
            return nil
        }
        guard let hour = scanner.digits(exactly: 2), scanner.take(":"), let minute = scanner.digits(exactly: 2)
        else { return nil }
        var second = 0
        var fraction = 0.0
        if scanner.take(":") {
            guard let whole = scanner.digits(exactly: 2) else { return nil }
            second = whole
            if scanner.take(".") || scanner.take(",") {
                guard let digits = scanner.fraction() else { return nil }
                fraction = digits
            }
        } else if syntax.requiresSeconds {
            return nil
        }
        let endOfDay = syntax.allowsEndOfDay && hour == 24 && minute == 0 && second == 0 && fraction == 0
        guard hour < 24 || endOfDay, minute < 60, second < 61 else { return nil }
        var zoneOffsetSeconds: Int?
        if !scanner.isAtEnd || syntax.requiresZone {
            guard let offset = zone(&scanner) else { return nil }
            zoneOffsetSeconds = offset
        }
        return ISO8601DateTime(
            day: day, hour: hour, minute: minute, second: second, fraction: fraction,
            zoneOffsetSeconds: zoneOffsetSeconds)
    }

    /// `Z`, `z`, `±hh`, `±hh:mm` or `±hhmm` as seconds east of UTC; `±hh` only at the end of the text.
    private static func zone(_ scanner: inout ISO8601Scanner) -> Int? {
        if scanner.takeLetter("Z") { return 0 }
        guard let sign = scanner.sign(), let hours = scanner.digits(exactly: 2), hours <= 23 else { return nil }
        var minutes = 0
        if !scanner.isAtEnd {
            _ = scanner.take(":")
            guard let written = scanner.digits(exactly: 2), written < 60 else { return nil }
            minutes = written
        }
        return sign * (hours * 3_600 + minutes * 60)
    }
}

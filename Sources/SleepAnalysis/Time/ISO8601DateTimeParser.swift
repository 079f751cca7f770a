import Foundation

/// Reads ISO 8601 date-times and durations in the extended format, for intervals such as wake-up windows.
///
/// Date-times: `YYYY-MM-DDThh:mm[:ss[.fff]][Z|±hh[:mm]]` (`T` may be a space; `,` may mark the fraction).
/// Without a zone the time is local to the given default time zone. An abbreviated form without the
/// date (`hh:mm[:ss][zone]`) is accepted where the caller allows it and takes its date from a reference.
/// Durations: `PnW` or `P[nY][nM][nD][T[nH][nM][nS]]`, the last number may have a fraction.
struct ISO8601DateTimeParser {
    /// The zone for date-times written without one.
    var defaultTimeZone: TimeZone

    /// A parsed date-time before it is resolved to an instant.
    struct DateTime {
        /// Year, month and day; nil for the abbreviated time-only form.
        var date: (year: Int, month: Int, day: Int)?
        /// Hour (0...24; 24 only as 24:00:00), minute and seconds with fraction.
        var hour: Int, minute: Int, second: Double
        /// The written zone, nil when none was written.
        var timeZone: TimeZone?
    }

    /// A parsed duration, in calendar units and seconds.
    struct Duration {
        /// The longest duration `move` accepts, in years: far beyond any interval of nights, and small enough that
        /// every field converts to `Int` and every calendar step stays in range.
        static let maximumYears = 10_000.0

        /// Whole years, months and days (weeks count as 7 days), and seconds (hours, minutes, seconds).
        var years = 0.0, months = 0.0, days = 0.0, seconds = 0.0

        /// Whether every field is finite and at most `maximumYears` long (a digit string can spell any number).
        var isWithinMaximum: Bool {
            let limits = [Self.maximumYears, 12 * Self.maximumYears, 366 * Self.maximumYears]
            return zip([years, months, days], limits).allSatisfy { $0.isFinite && $0 <= $1 }
                && seconds.isFinite && seconds <= 366 * 86_400 * Self.maximumYears
        }
    }

    /// Parses a date-time, optionally the abbreviated time-only form.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - allowTimeOnly: Whether `hh:mm[:ss][zone]` without a date is accepted.
    /// - Returns: The parsed fields, or nil when the text is not such a date-time.
    func parseDateTime(_ text: Substring, allowTimeOnly: Bool = false) -> DateTime? {
        var cursor = Cursor(text)
        var date: (Int, Int, Int)?
        if let year = cursor.digits(exactly: 4) {
            guard cursor.take("-"), let month = cursor.digits(exactly: 2), cursor.take("-"),
                let day = cursor.digits(exactly: 2), cursor.take("T") || cursor.take("t") || cursor.take(" ")
            else { return nil }
            date = (year, month, day)
        } else if !allowTimeOnly {
            return nil
        }
        guard let hour = cursor.digits(exactly: 2), cursor.take(":"), let minute = cursor.digits(exactly: 2)
        else { return nil }
        var second = 0.0
        if cursor.take(":") {
            guard let whole = cursor.digits(exactly: 2) else { return nil }
            second = Double(whole)
            if cursor.take(".") || cursor.take(",") {
                guard let fraction = cursor.fraction() else { return nil }
                second += fraction
            }
        }
        var zone: TimeZone?
        if cursor.take("Z") || cursor.take("z") {
            zone = TimeZone(secondsFromGMT: 0)
        } else if let sign = cursor.sign() {
            guard let zoneHours = cursor.digits(exactly: 2), zoneHours <= 18 else { return nil }
            _ = cursor.take(":")
            let zoneMinutes = cursor.digits(exactly: 2) ?? 0
            guard zoneMinutes < 60 else { return nil }
            zone = TimeZone(secondsFromGMT: sign * (zoneHours * 3600 + zoneMinutes * 60))
        }
        guard cursor.isAtEnd, minute < 60, second < 61,
            hour < 24 || (hour == 24 && minute == 0 && second == 0)
        else { return nil }
        if let (year, month, day) = date {
            guard (1...12).contains(month), (1...31).contains(day), year > 0 else { return nil }
        }
        return DateTime(
            date: date.map { (year: $0.0, month: $0.1, day: $0.2) }, hour: hour, minute: minute, second: second,
            timeZone: zone
        )
    }

    /// Resolves a parsed date-time to an instant.
    ///
    /// - Parameters:
    ///   - value: The parsed date-time.
    ///   - reference: For the time-only form: the date-time whose date and zone it borrows.
    /// - Returns: The instant, or nil when the date does not exist (e.g. 31 February).
    func resolve(_ value: DateTime, reference: DateTime? = nil) -> Date? {
        guard let date = value.date ?? reference?.date else { return nil }
        let zone = value.timeZone ?? reference?.timeZone ?? defaultTimeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(year: date.year, month: date.month, day: date.day)
        guard let midnight = calendar.date(from: components),
            calendar.dateComponents([.year, .month, .day], from: midnight) == components
        else { return nil }
        let wholeSeconds = Int(value.second.rounded(.down))
        let time = DateComponents(hour: value.hour, minute: value.minute, second: wholeSeconds)
        guard let instant = calendar.date(byAdding: time, to: midnight) else { return nil }
        return instant.addingTimeInterval(value.second - Double(wholeSeconds))
    }

    /// Parses a duration (`P…`).
    ///
    /// - Parameter text: The text.
    /// - Returns: The duration, or nil when the text is not a duration.
    func parseDuration(_ text: Substring) -> Duration? {
        var cursor = Cursor(text)
        guard cursor.take("P") || cursor.take("p") else { return nil }
        var duration = Duration()
        var inTime = false
        var sawNumber = false
        var sawFraction = false
        while !cursor.isAtEnd {
            if cursor.take("T") || cursor.take("t") {
                guard !inTime else { return nil }
                inTime = true
                continue
            }
            guard !sawFraction, let number = cursor.decimal() else { return nil }
            sawFraction = number.rounded(.down) != number
            sawNumber = true
            switch (cursor.next()?.uppercased(), inTime) {
            case ("Y", false): duration.years += number
            case ("M", false): duration.months += number
            case ("W", false): duration.days += 7 * number
            case ("D", false): duration.days += number
            case ("H", true): duration.seconds += 3600 * number
            case ("M", true): duration.seconds += 60 * number
            case ("S", true): duration.seconds += number
            default: return nil
            }
        }
        return sawNumber ? duration : nil
    }

    /// Moves an instant by a duration (or back, with `sign` -1) in the calendar of a time zone.
    ///
    /// - Parameters:
    ///   - date: The instant.
    ///   - duration: The duration.
    ///   - sign: 1 to add, -1 to subtract.
    ///   - zone: The zone whose calendar counts years, months and days.
    /// - Returns: The moved instant, or nil for a fractional year or month or a duration longer than
    ///   `Duration.maximumYears`.
    func move(_ date: Date, by duration: Duration, sign: Int, in zone: TimeZone) -> Date? {
        guard duration.isWithinMaximum, duration.years.rounded(.down) == duration.years,
            duration.months.rounded(.down) == duration.months
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let wholeDays = duration.days.rounded(.down)
        let calendarPart = DateComponents(
            year: sign * Int(duration.years), month: sign * Int(duration.months), day: sign * Int(wholeDays)
        )
        guard let moved = calendar.date(byAdding: calendarPart, to: date) else { return nil }
        let seconds = (duration.days - wholeDays) * 86_400 + duration.seconds
        return moved.addingTimeInterval(Double(sign) * seconds)
    }
}

/// A forward-only reader over the characters of a string.
private struct Cursor {
    private let characters: [Character]
    private var index = 0

    init(_ text: Substring) { characters = Array(text) }

    var isAtEnd: Bool { index == characters.count }

    mutating func next() -> Character? {
        guard index < characters.count else { return nil }
        defer { index += 1 }
        return characters[index]
    }

    mutating func take(_ character: Character) -> Bool {
        guard index < characters.count, characters[index] == character else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int? {
        if take("+") { return 1 }
        if take("-") || take("\u{2212}") { return -1 }
        return nil
    }

    mutating func digits(exactly count: Int) -> Int? {
        guard index + count <= characters.count else { return nil }
        let slice = characters[index..<index + count]
        guard slice.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(String(slice)) else { return nil }
        index += count
        return value
    }

    /// Digits after a decimal mark, as a fraction (".5" → 0.5).
    mutating func fraction() -> Double? {
        let start = index
        while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
        guard index > start else { return nil }
        return Double("0." + String(characters[start..<index]))
    }

    /// A non-negative decimal number (`12`, `1.5`, `1,5`).
    mutating func decimal() -> Double? {
        let start = index
        while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
        guard index > start, let whole = Double(String(characters[start..<index])) else { return nil }
        if take(".") || take(",") {
            guard let fraction = fraction() else { return nil }
            return whole + fraction
        }
        return whole
    }
}

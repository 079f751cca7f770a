import Foundation

/// An ISO 8601 duration, `PnW` or `P[nY][nM][nD][T[nH][nM][nS]]`, in calendar units and seconds; the last number
/// may have a fraction (`.` or `,`).
struct ISO8601Duration: Hashable {
    /// Whole or fractional years, months and days (weeks count as 7 days).
    var years = 0.0, months = 0.0, days = 0.0
    /// Hours, minutes and seconds, in seconds.
    var seconds = 0.0

    /// Reads a duration.
    ///
    /// - Parameter text: The text, starting with `P`.
    /// - Returns: nil when the text is not a duration.
    init?(_ text: some StringProtocol) {
        var copy = String(text)
        guard let duration = copy.withUTF8({ Self.parse($0) }) else { return nil }
        self = duration
    }

    /// The largest years, months and days `move` takes: ten thousand years' worth of each.
    static let calendarLimit = (years: 10_000.0, months: 120_000.0, days: 3_653_000.0)

    private init() {}

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ISO8601Duration? {
        var scanner = ISO8601Scanner(bytes)
        guard scanner.takeLetter("P") else { return nil }
        var duration = ISO8601Duration()
        var inTime = false
        var sawNumber = false
        var sawFraction = false
        while !scanner.isAtEnd {
            if scanner.takeLetter("T") {
                guard !inTime else { return nil }
                inTime = true
                continue
            }
            guard !sawFraction, let number = scanner.decimal(), let designator = scanner.next() else { return nil }
            sawFraction = number.rounded(.down) != number
            sawNumber = true
            switch (designator & 0xDF, inTime) {
            case (UInt8(ascii: "Y"), false): duration.years += number
            case (UInt8(ascii: "M"), false): duration.months += number
            case (UInt8(ascii: "W"), false): duration.days += 7 * number
            case (UInt8(ascii: "D"), false): duration.days += number
            case (UInt8(ascii: "H"), true): duration.seconds += 3600 * number
            case (UInt8(ascii: "M"), true): duration.seconds += 60 * number
            case (UInt8(ascii: "S"), true): duration.seconds += number
            default: return nil
            }
        }
        return sawNumber ? duration : nil
    }

    /// Moves an instant by this duration (or back, with `sign` -1) in the calendar of a time zone.
    ///
    /// - Parameters:
    ///   - date: The instant.
    ///   - sign: 1 to add, -1 to subtract.
    ///   - zone: The zone whose calendar counts years, months and days.
    /// - Returns: The moved instant, or nil for a fractional year or month, or a calendar part beyond
    ///   `calendarLimit` (which no date-time in 1970...9999 could be moved by; hours, minutes and seconds are held
    ///   to the same ten thousand years).
    func move(_ date: Date, sign: Int, in zone: TimeZone) -> Date? {
        guard years.rounded(.down) == years, months.rounded(.down) == months,
            years <= Self.calendarLimit.years, months <= Self.calendarLimit.months, days <= Self.calendarLimit.days,
            seconds <= Self.calendarLimit.days * 86_400
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let wholeDays = days.rounded(.down)
        let calendarPart = DateComponents(
            year: sign * Int(years), month: sign * Int(months), day: sign * Int(wholeDays))
        guard let moved = calendar.date(byAdding: calendarPart, to: date) else { return nil }
        let seconds = (days - wholeDays) * 86_400 + self.seconds
        return moved.addingTimeInterval(Double(sign) * seconds)
    }
}

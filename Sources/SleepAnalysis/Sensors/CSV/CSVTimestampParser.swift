import Foundation

/// Turns a CSV timestamp field into a date.
///
/// Three spellings are accepted:
/// - seconds relative to the source's start time (`12.5`), when the value is at most 1e9;
/// - seconds since the Unix epoch (`1706742000.25`), when the value is above 1e9 (after 2001-09-09);
/// - ISO 8601 with a zone designator: `2024-01-31T23:00:00Z`, `2024-01-31 23:00:00.250+01:00`, `…+0100`.
///   A date without a zone is a local time in the zone the caller gives (`localZone`, the command line's
///   `--timezone`), and rejected without one: it would silently depend on the machine's time zone.
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
        if let date = parseISO8601(bytes, localZone: localZone) { return .date(date) }
        return .unparsable
    }

    /// Parses `YYYY-MM-DD(T| )hh:mm:ss[.fraction](Z|±hh:mm|±hhmm|±hh)`; nil when it is anything else.
    static func parseISO8601(_ text: Substring) -> Date? {
        var copy = String(text)
        return copy.withUTF8 { parseISO8601($0) }
    }

    /// Parses `YYYY-MM-DD(T| )hh:mm:ss[.fraction](Z|±hh:mm|±hhmm|±hh)` from bytes, or without the zone when
    /// `localZone` is given (a local time there); nil when it is anything else.
    static func parseISO8601(_ bytes: UnsafeBufferPointer<UInt8>, localZone: TimeZone? = nil) -> Date? {
        var scanner = DigitScanner(bytes: bytes)
        guard let year = scanner.number(digits: 4), scanner.expect(UInt8(ascii: "-")),
            let month = scanner.number(digits: 2), scanner.expect(UInt8(ascii: "-")),
            let day = scanner.number(digits: 2),
            scanner.expect(UInt8(ascii: "T")) || scanner.expect(UInt8(ascii: "t"))
                || scanner.expect(UInt8(ascii: " ")),
            let hour = scanner.number(digits: 2), scanner.expect(UInt8(ascii: ":")),
            let minute = scanner.number(digits: 2), scanner.expect(UInt8(ascii: ":")),
            let second = scanner.number(digits: 2)
        else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }

        var fraction = 0.0
        if scanner.expect(UInt8(ascii: ".")) || scanner.expect(UInt8(ascii: ",")) {
            guard let digits = scanner.fractionDigits() else { return nil }
            fraction = digits
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let wallClock = Double(days) * 86_400 + Double(hour * 3_600 + minute * 60 + second) + fraction
        if scanner.isAtEnd, let localZone {
            return Date(timeIntervalSince1970: wallClock - Double(offset(ofWallClock: wallClock, in: localZone)))
        }
        guard let offset = scanner.zoneOffsetSeconds(), scanner.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: wallClock - Double(offset))
    }

    /// The zone's offset from UTC (seconds east) at the local wall-clock time `wallClock` (seconds since
    /// 1970-01-01 00:00 on that clock): the offset guessed at the same UTC instant, then taken again at the instant
    /// it gives, so a time just after a daylight-saving change gets the new offset.
    static func offset(ofWallClock wallClock: Double, in zone: TimeZone) -> Int {
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: wallClock - Double(guess)))
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A cursor over ASCII bytes for the ISO 8601 parser.
private struct DigitScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    mutating func expect(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard position + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<position + digits] {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        position += digits
        return value
    }

    mutating func fractionDigits() -> Double? {
        var value = 0.0
        var scale = 0.1
        let start = position
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            value += Double(bytes[position] - 0x30) * scale
            scale /= 10
            position += 1
        }
        return position > start ? value : nil
    }

    /// `Z`, `±hh:mm`, `±hhmm` or `±hh` as seconds east of UTC; nil when there is no valid zone.
    mutating func zoneOffsetSeconds() -> Int? {
        if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) { return 0 }
        let sign: Int
        if expect(UInt8(ascii: "+")) {
            sign = 1
        } else if expect(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return nil
        }
        guard let hours = number(digits: 2), hours <= 23 else { return nil }
        var minutes = 0
        if !isAtEnd {
            _ = expect(UInt8(ascii: ":"))
            guard let parsed = number(digits: 2), parsed < 60 else { return nil }
            minutes = parsed
        }
        return sign * (hours * 3_600 + minutes * 60)
    }
}

import Foundation

/// An ISO 8601 date-time as written, before it is resolved to an instant.
package struct ISO8601DateTime: Sendable, Hashable {
    /// A calendar day of the proleptic Gregorian calendar.
    package struct Day: Sendable, Hashable {
        /// The year (1970...9999 once parsed).
        package var year: Int
        /// The month, 1...12.
        package var month: Int
        /// The day of the month, 1...28, 29, 30 or 31 as the month has.
        package var day: Int

        /// Days from 1970-01-01 to this day (Howard Hinnant's `days_from_civil`).
        package var daysSinceEpoch: Int {
            let shiftedYear = month <= 2 ? year - 1 : year
            let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
            let yearOfEra = shiftedYear - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }

        /// The number of days in `month` of `year`.
        static func length(ofMonth month: Int, year: Int) -> Int {
            switch month {
            case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }
    }

    /// The date; nil for the abbreviated time-only form.
    package var day: Day?
    /// The hour, 0...23, or 24 for the end of the day (`24:00:00`).
    package var hour: Int
    /// The minute, 0...59.
    package var minute: Int
    /// The whole second, 0...60 (60 for a leap second, which counts as the next minute's first second).
    package var second: Int
    /// The fraction of a second, 0..<1.
    package var fraction: Double
    /// The written zone as seconds east of UTC; nil when none was written.
    package var zoneOffsetSeconds: Int?

    /// Whole seconds since the start of the day.
    var wholeSecondsIntoDay: Int { hour * 3_600 + minute * 60 + second }

    /// The instant, for a date-time with a date and a zone; nil otherwise.
    ///
    /// Plain arithmetic, no calendar object: this is the path every ISO 8601 CSV timestamp takes.
    var instant: Date? {
        guard let day, let zoneOffsetSeconds else { return nil }
        // Summed left to right, in the order the CSV reader always has, so instants stay the same to the last bit.
        let seconds =
            Double(day.daysSinceEpoch) * 86_400 + Double(wholeSecondsIntoDay) + fraction - Double(zoneOffsetSeconds)
        return Date(timeIntervalSince1970: seconds)
    }
}

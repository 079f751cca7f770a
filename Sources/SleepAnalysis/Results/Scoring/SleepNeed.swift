import Foundation

/// How much sleep a person of a given age needs: the National Sleep Foundation's recommended and
/// "may be appropriate" ranges (Hirshkowitz et al., Sleep Health 1:40–43, 2015), in hours per day.
///
/// | Age | Recommended | May be appropriate |
/// |---|---|---|
/// | 0–3 months | 14–17 | 11–19 |
/// | 4–11 months | 12–15 | 10–18 |
/// | 1–2 years | 11–14 | 9–16 |
/// | 3–5 years | 10–13 | 8–14 |
/// | 6–13 years | 9–11 | 7–12 |
/// | 14–17 years | 8–10 | 7–11 |
/// | 18–25 years | 7–9 | 6–11 |
/// | 26–64 years | 7–9 | 6–10 |
/// | 65+ years | 7–8 | 5–9 |
///
/// Without a date of birth the 26–64 row is used. The ranges are per 24 h; a night session is scored
/// against them as if it held all of the day's sleep.
struct SleepNeed: Sendable, Hashable {
    /// Hours that are recommended.
    var recommended: ClosedRange<Double>
    /// Hours that may be appropriate (wider than `recommended`).
    var acceptable: ClosedRange<Double>

    /// Hours beyond the "may be appropriate" range over which the score falls from 0.5 to 0.
    static let tailHours = 2.0

    /// The adult (26–64 years) ranges.
    static let adult = SleepNeed(recommended: 7...9, acceptable: 6...10)

    /// The ranges for an age.
    ///
    /// - Parameter age: Whole months since birth.
    /// - Returns: The row of the table for that age.
    static func forAge(months: Int) -> SleepNeed {
        let years = months / 12
        switch (months, years) {
        case (..<4, _): return SleepNeed(recommended: 14...17, acceptable: 11...19)
        case (..<12, _): return SleepNeed(recommended: 12...15, acceptable: 10...18)
        case (_, ...2): return SleepNeed(recommended: 11...14, acceptable: 9...16)
        case (_, ...5): return SleepNeed(recommended: 10...13, acceptable: 8...14)
        case (_, ...13): return SleepNeed(recommended: 9...11, acceptable: 7...12)
        case (_, ...17): return SleepNeed(recommended: 8...10, acceptable: 7...11)
        case (_, ...25): return SleepNeed(recommended: 7...9, acceptable: 6...11)
        case (_, ...64): return adult
        default: return SleepNeed(recommended: 7...8, acceptable: 5...9)
        }
    }

    /// The duration sub-score of a night's sleep.
    ///
    /// 1 inside the recommended range; from its edge to the edge of the "may be appropriate" range it falls
    /// linearly to 0.5; over the next 2 hours beyond that it falls linearly to 0.
    ///
    /// - Parameter hours: Hours asleep.
    /// - Returns: The score, 0...1.
    func score(hours: Double) -> Double {
        if recommended.contains(hours) { return 1 }
        if hours < recommended.lowerBound {
            if hours >= acceptable.lowerBound {
                return 1 - 0.5 * (recommended.lowerBound - hours) / (recommended.lowerBound - acceptable.lowerBound)
            }
            return max(0, 0.5 - 0.5 * (acceptable.lowerBound - hours) / Self.tailHours)
        }
        if hours <= acceptable.upperBound {
            return 1 - 0.5 * (hours - recommended.upperBound) / (acceptable.upperBound - recommended.upperBound)
        }
        return max(0, 0.5 - 0.5 * (hours - acceptable.upperBound) / Self.tailHours)
    }
}

/// A sleeper's age on a given night.
enum SleeperAge {
    /// Whole months from birth to a date, in a time zone's calendar; nil without a date of birth or when
    /// the date of birth is after the date.
    ///
    /// - Parameters:
    ///   - dateOfBirth: The date of birth.
    ///   - date: The night.
    ///   - timeZone: The zone of the sleeper's calendar.
    /// - Returns: The age in months.
    static func months(dateOfBirth: Date?, at date: Date, in timeZone: TimeZone) -> Int? {
        guard let dateOfBirth, dateOfBirth <= date else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.dateComponents([.month], from: dateOfBirth, to: date).month
    }
}

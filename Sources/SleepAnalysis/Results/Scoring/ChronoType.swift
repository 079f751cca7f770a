import Foundation

/// When in the day someone naturally sleeps, from extreme "lark" to extreme "owl".
///
/// Derived from the mid-sleep on free days corrected for sleep debt (MSFsc, as in the Munich ChronoType
/// Questionnaire) by `SleepScoring.identifyChronoType(history:)`, local clock time:
/// `.extremeMorning` before 02:00, `.morning` 02:00–03:30, `.intermediate` 03:30–05:00,
/// `.evening` 05:00–06:30, `.extremeEvening` from 06:30. The bands are ours: 1.5 h wide around the
/// population's typical MSFsc of about 04:15.
public enum ChronoType: String, Sendable, Codable, CaseIterable, Hashable {
    /// Mid-sleep before 02:00.
    case extremeMorning
    /// Mid-sleep 02:00–03:30.
    case morning
    /// Mid-sleep 03:30–05:00.
    case intermediate
    /// Mid-sleep 05:00–06:30.
    case evening
    /// Mid-sleep from 06:30.
    case extremeEvening

    /// The mid-sleep this chronotype naturally has, in hours after noon (04:15 is 28.25): the middle of its
    /// band, or 45 min beyond the edge for the extreme types.
    var idealMidSleepHoursAfterNoon: Double {
        switch self {
        case .extremeMorning: 25.25
        case .morning: 26.75
        case .intermediate: 28.25
        case .evening: 29.75
        case .extremeEvening: 31.25
        }
    }

    /// The chronotype of a corrected mid-sleep.
    ///
    /// - Parameter hoursAfterNoon: MSFsc in hours after noon, 12..<36 (02:00 is 26).
    /// - Returns: The band it falls in.
    init(midSleepHoursAfterNoon hoursAfterNoon: Double) {
        switch hoursAfterNoon {
        case ..<26: self = .extremeMorning
        case ..<27.5: self = .morning
        case ..<29: self = .intermediate
        case ..<30.5: self = .evening
        default: self = .extremeEvening
        }
    }
}

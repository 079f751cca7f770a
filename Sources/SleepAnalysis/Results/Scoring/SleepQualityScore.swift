import Foundation

/// The quality sub-score: a weighted mean of six measures, each mapped to 0...1.
///
/// | Measure | Weight | 1 at | 0 at |
/// |---|---|---|---|
/// | Sleep efficiency E | 0.30 | E ≥ 85 % | E ≤ 65 % |
/// | Sleep-onset latency L | 0.15 | L ≤ 30 min | L ≥ 60 min |
/// | Awakenings N of ≥ 5 min after onset | 0.15 | N ≤ 1 | N ≥ 4 |
/// | Wake after sleep onset W | 0.10 | W ≤ 20 min | W ≥ 60 min |
/// | Deep share D = deep / asleep | 0.15 | D ≥ target(age) | D = 0 |
/// | REM share R = REM / asleep | 0.15 | R ≥ 20 % | R = 0 |
///
/// Linear between. The "1 at" thresholds for efficiency, latency, awakenings and WASO are the "good
/// sleep quality" indicators of the National Sleep Foundation's consensus (Ohayon et al., Sleep Health
/// 3:6–19, 2017); the "0 at" points are ours. The deep-sleep target falls with age as slow-wave sleep
/// does: 20 % up to 20 years, linearly to 10 % at 80 years and after; 15 % without a date of birth.
/// Measures the result cannot give (no staging) are left out and the weights of the others renormalised;
/// with none at all the quality is 0.5 (unknown, neither good nor bad).
enum SleepQualityScore {
    /// The quality of a night.
    ///
    /// - Parameters:
    ///   - night: The night's figures.
    ///   - ageMonths: The sleeper's age in months, if known.
    /// - Returns: The score, 0...1.
    static func score(_ night: NightSummary, ageMonths: Int?) -> Double {
        var parts: [(weight: Double, value: Double)] = []
        if night.hasStaging {
            parts.append((0.30, LocalClock.risingRamp(night.efficiency, zero: 0.65, full: 0.85)))
        }
        if let latency = night.onsetLatency {
            parts.append((0.15, LocalClock.fallingRamp(latency / 60, full: 30, zero: 60)))
        }
        if let awakenings = night.longAwakenings {
            parts.append((0.15, LocalClock.fallingRamp(Double(awakenings), full: 1, zero: 4)))
        }
        if let wake = night.wakeAfterSleepOnset {
            parts.append((0.10, LocalClock.fallingRamp(wake / 60, full: 20, zero: 60)))
        }
        if let stages = night.stageDurations, night.totalSleep > 0 {
            let deepShare = (stages[.deep] ?? 0) / night.totalSleep
            let remShare = (stages[.rem] ?? 0) / night.totalSleep
            parts.append((0.15, min(1, deepShare / deepSleepTarget(ageMonths: ageMonths))))
            parts.append((0.15, min(1, remShare / 0.20)))
        }
        let weight = parts.map(\.weight).reduce(0, +)
        guard weight > 0 else { return 0.5 }
        return parts.map { $0.weight * $0.value }.reduce(0, +) / weight
    }

    /// The share of deep sleep that scores full marks at an age.
    ///
    /// - Parameter ageMonths: The age in months, if known.
    /// - Returns: 0.20 up to 20 years, falling linearly to 0.10 at 80 years; 0.15 when unknown.
    static func deepSleepTarget(ageMonths: Int?) -> Double {
        guard let ageMonths else { return 0.15 }
        let years = Double(ageMonths) / 12
        return 0.20 - 0.10 * min(1, max(0, (years - 20) / 60))
    }
}

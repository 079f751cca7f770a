import Foundation

/// The sleep score of a finished night and the sleeper's chronotype, computed on the device.
///
/// `compute` gives four numbers in 0...1 (higher is better):
/// - **duration**: hours asleep against the National Sleep Foundation's ranges for the sleeper's age
///   (adult 26–64 without a date of birth): 1 inside the recommended range, falling linearly to 0.5 at the
///   edge of the "may be appropriate" range, then to 0 over 2 more hours (see `SleepNeed`).
/// - **quality**: weighted mean of efficiency (0.30; 1 at ≥ 85 %, 0 at ≤ 65 %), onset latency (0.15; 1 at
///   ≤ 30 min, 0 at ≥ 60 min), awakenings of ≥ 5 min (0.15; 1 at ≤ 1, 0 at ≥ 4), wake after onset (0.10;
///   1 at ≤ 20 min, 0 at ≥ 60 min), deep share (0.15; 1 at ≥ an age-dependent target of 20 % → 10 %) and
///   REM share (0.15; 1 at ≥ 20 %); missing measures are left out (see `SleepQualityScore`).
/// - **routine**: 0.6 · regularity of sleep onset and final wake against the last 14 nights of the past 28
///   days (1 within 30 min, 0 beyond 120 min) + 0.4 · timing of mid-sleep against the chronotype (1 within
///   60 min, 0 beyond 180 min); timing alone without history (see `SleepRoutineScore`).
/// - **total** = 0.40 · duration + 0.35 · quality + 0.25 · routine.
///
/// `identifyChronoType` follows the Munich ChronoType Questionnaire's sleep-debt-corrected mid-sleep on free
/// days (see `ChronoTypeEstimator`); it needs 7 nights including 2 free ones.
public enum SleepScoring {
    /// Weights of duration, quality and routine in the total.
    static let weights = (duration: 0.40, quality: 0.35, routine: 0.25)

    /// Scores a finished night.
    ///
    /// - Parameters:
    ///   - result: The night's analysis result.
    ///   - history: Earlier nights (`toSleepScoreHistoryEntry()` of past results), any order; entries from
    ///     tonight's session or after it are ignored.
    ///   - dateOfBirth: The sleeper's date of birth; sets the sleep need and the deep-sleep target.
    ///   - chronoType: The sleeper's chronotype (e.g. from `identifyChronoType`); sets the ideal timing,
    ///     `.intermediate` when nil.
    /// - Returns: The total and its three parts, each 0...1.
    public static func compute(
        result: AnalysisResult, history: [SleepScoreHistoryEntry] = [], dateOfBirth: Date? = nil,
        chronoType: ChronoType? = nil
    ) -> SleepScore {
        let night = NightSummary(result)
        let age = SleeperAge.months(dateOfBirth: dateOfBirth, at: result.startTime, in: result.timeZone)
        let need = age.map { SleepNeed.forAge(months: $0) } ?? .adult
        let duration = need.score(hours: night.totalSleep / 3600)
        let quality = SleepQualityScore.score(night, ageMonths: age)
        let weekday = SleepScoreHistoryEntry.nightWeekday(inBedStart: result.startTime, timeZone: result.timeZone)
        let routine = SleepRoutineScore.score(
            night, sessionId: result.sessionId, isFreeDay: SleepScoreHistoryEntry.defaultFreeNights.contains(weekday),
            history: history, chronoType: chronoType
        )
        let total = weights.duration * duration + weights.quality * quality + weights.routine * routine
        return SleepScore(
            total: unit(total), duration: unit(duration), quality: unit(quality), routine: unit(routine)
        )
    }

    /// Scores a finished night when it is one: nil for a recording that was not staged, is under 3 hours in bed,
    /// or has no sleep (`AnalysisResult.scoreUnavailableReason` says which), where `compute` would rate a nap or a
    /// clip as a poor night.
    ///
    /// - Parameters: as `compute`.
    /// - Returns: The score, or nil when the night cannot be scored.
    public static func score(
        result: AnalysisResult, history: [SleepScoreHistoryEntry] = [], dateOfBirth: Date? = nil,
        chronoType: ChronoType? = nil
    ) -> SleepScore? {
        guard result.scoreUnavailableReason == nil else { return nil }
        return compute(result: result, history: history, dateOfBirth: dateOfBirth, chronoType: chronoType)
    }

    /// The sleeper's chronotype from recent nights.
    ///
    /// - Parameter history: Earlier nights, any order; the most recent 28 are used.
    /// - Returns: The chronotype, or nil with fewer than 7 nights or fewer than 2 free nights among them.
    public static func identifyChronoType(history: [SleepScoreHistoryEntry]) -> ChronoType? {
        ChronoTypeEstimator.chronoType(history)
    }

    /// A value clamped to 0...1 as a `Float` (NaN becomes 0).
    private static func unit(_ value: Double) -> Float {
        value.isFinite ? Float(min(1, max(0, value))) : 0
    }
}

import Foundation

/// The chronotype from sleep history, after the Munich ChronoType Questionnaire (Roenneberg et al. 2003;
/// sleep-debt correction as in Roenneberg et al. 2012).
///
/// From the history's free nights (`isFreeDay`) and work nights:
/// - `SO_f`: circular mean of the local sleep-onset times of free nights;
/// - `SD_f`, `SD_w`: mean sleep duration (onset to final wake) of free and of work nights;
/// - `MSF = SO_f + SD_f / 2` (mid-sleep on free days);
/// - `SD_week = (5 · SD_w + 2 · SD_f) / 7` (the MCTQ's five work and two free days; `SD_f` alone
///   without work nights);
/// - `MSFsc = MSF − (SD_f − SD_week) / 2` when `SD_f > SD_w` (oversleep on free days pays back debt),
///   else `MSF`;
/// - `MSFsc` falls in one of the bands of `ChronoType`.
///
/// Needs at least `minimumNights` (7) nights of which at least `minimumFreeNights` (2) are free; the most
/// recent 28 nights are used.
enum ChronoTypeEstimator {
    /// The fewest nights that give a chronotype.
    static let minimumNights = 7
    /// The fewest free nights among them.
    static let minimumFreeNights = 2
    /// The most recent nights used.
    static let maximumNights = 28

    /// The sleep-debt-corrected mid-sleep on free days, in hours after noon.
    ///
    /// - Parameter history: Earlier nights, any order.
    /// - Returns: MSFsc (12..<36), or nil with too little history.
    static func correctedMidSleepOnFreeDays(_ history: [SleepScoreHistoryEntry]) -> Double? {
        let nights = history.sorted { $0.inBedStart > $1.inBedStart }.prefix(maximumNights)
        let free = nights.filter(\.isFreeDay)
        let work = nights.filter { !$0.isFreeDay }
        guard nights.count >= minimumNights, free.count >= minimumFreeNights,
            let onsetFree = LocalClock.circularMean(
                free.map { LocalClock.hoursAfterNoon($0.sleepOnset, in: $0.timeZone) })
        else { return nil }
        let durationFree = free.map { $0.sleepPeriod / 3600 }.reduce(0, +) / Double(free.count)
        let midSleepFree = onsetFree + durationFree / 2
        guard !work.isEmpty else { return LocalClock.normalised(midSleepFree) }
        let durationWork = work.map { $0.sleepPeriod / 3600 }.reduce(0, +) / Double(work.count)
        guard durationFree > durationWork else { return LocalClock.normalised(midSleepFree) }
        let durationWeek = (5 * durationWork + 2 * durationFree) / 7
        return LocalClock.normalised(midSleepFree - (durationFree - durationWeek) / 2)
    }

    /// The chronotype of a history.
    ///
    /// - Parameter history: Earlier nights.
    /// - Returns: The chronotype, or nil with too little history.
    static func chronoType(_ history: [SleepScoreHistoryEntry]) -> ChronoType? {
        correctedMidSleepOnFreeDays(history).map { ChronoType(midSleepHoursAfterNoon: $0) }
    }
}

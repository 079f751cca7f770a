import Foundation

/// The routine sub-score: regularity against recent nights and timing against the chronotype.
///
/// - Recent nights: history entries that started in the 28 days before tonight (not tonight itself), the
///   14 most recent; of those, the nights of the same kind as tonight (free or work) when there are at
///   least 2, else all of them.
/// - Regularity: the distance d (around the clock) of tonight's sleep onset from the circular mean of the
///   recent nights' onsets scores 1 for d ≤ 30 min, 0 for d ≥ 120 min, linear between; the same for the
///   final wake time; regularity is the mean of the two.
/// - Timing: the distance of tonight's mid-sleep (halfway from onset to final wake, local clock) from the
///   chronotype's natural mid-sleep (`.intermediate` when none is given: 04:15) scores 1 for ≤ 60 min,
///   0 for ≥ 180 min, linear between.
/// - Routine = 0.6 · regularity + 0.4 · timing, or timing alone without recent nights.
enum SleepRoutineScore {
    /// How far back history counts, in seconds (28 days).
    static let historyHorizon: TimeInterval = 28 * 86_400
    /// How many recent nights count at most.
    static let historyNights = 14

    /// The routine of a night.
    ///
    /// - Parameters:
    ///   - night: Tonight's figures.
    ///   - sessionId: Tonight's session (an entry of it in the history is ignored).
    ///   - isFreeDay: Whether tonight is before a free day.
    ///   - history: Earlier nights.
    ///   - chronoType: The sleeper's chronotype, if known.
    /// - Returns: The score, 0...1.
    static func score(
        _ night: NightSummary, sessionId: UUID, isFreeDay: Bool, history: [SleepScoreHistoryEntry],
        chronoType: ChronoType?
    ) -> Double {
        let timing = timingScore(night, chronoType: chronoType ?? .intermediate)
        let recent = recentNights(history, before: night.inBed.start, excluding: sessionId)
        let sameKind = recent.filter { $0.isFreeDay == isFreeDay }
        let reference = sameKind.count >= 2 ? sameKind : recent
        guard
            let meanOnset = LocalClock.circularMean(
                reference.map { LocalClock.hoursAfterNoon($0.sleepOnset, in: $0.timeZone) }),
            let meanWake = LocalClock.circularMean(
                reference.map { LocalClock.hoursAfterNoon($0.finalWake, in: $0.timeZone) })
        else { return timing }
        let onset = LocalClock.hoursAfterNoon(night.sleepOnset, in: night.timeZone)
        let wake = LocalClock.hoursAfterNoon(night.finalWake, in: night.timeZone)
        let regularity =
            (regularityScore(hours: LocalClock.distance(onset, meanOnset))
                + regularityScore(hours: LocalClock.distance(wake, meanWake))) / 2
        return 0.6 * regularity + 0.4 * timing
    }

    /// The most recent nights before `date`, within the horizon, newest first.
    static func recentNights(
        _ history: [SleepScoreHistoryEntry], before date: Date, excluding sessionId: UUID
    ) -> [SleepScoreHistoryEntry] {
        let earliest = date.addingTimeInterval(-historyHorizon)
        return
            history
            .filter { $0.sessionId != sessionId && $0.inBedStart < date && $0.inBedStart >= earliest }
            .sorted { $0.inBedStart > $1.inBedStart }
            .prefix(historyNights)
            .map { $0 }
    }

    /// 1 up to 30 min off, 0 from 120 min off.
    static func regularityScore(hours: Double) -> Double {
        LocalClock.fallingRamp(hours * 60, full: 30, zero: 120)
    }

    /// The timing of tonight's mid-sleep against a chronotype.
    static func timingScore(_ night: NightSummary, chronoType: ChronoType) -> Double {
        let midSleep = night.sleepOnset.addingTimeInterval(night.finalWake.timeIntervalSince(night.sleepOnset) / 2)
        let hours = LocalClock.hoursAfterNoon(midSleep, in: night.timeZone)
        let distance = LocalClock.distance(hours, chronoType.idealMidSleepHoursAfterNoon)
        return LocalClock.fallingRamp(distance * 60, full: 60, zero: 180)
    }
}

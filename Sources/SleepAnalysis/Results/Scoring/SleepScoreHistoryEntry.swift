import Foundation

/// What the sleep score remembers of one night; persist it and pass recent ones to
/// `SleepScoring.compute(result:history:dateOfBirth:chronoType:)` and `SleepScoring.identifyChronoType(history:)`.
///
/// Make one with `AnalysisResult.toSleepScoreHistoryEntry()`. Its JSON keys are stable.
public struct SleepScoreHistoryEntry: Codable, Sendable, Hashable {
    /// Calendar weekdays (1 Sunday … 7 Saturday) of the nights that count as free by default: Friday and
    /// Saturday nights, before a weekend day.
    public static let defaultFreeNights: Set<Int> = [6, 7]

    /// The session the night came from.
    public var sessionId: UUID
    /// When the session started (going to bed).
    public var inBedStart: Date
    /// When the session ended (getting up).
    public var inBedEnd: Date
    /// The start of the first sleep.
    public var sleepOnset: Date
    /// The end of the last sleep.
    public var finalWake: Date
    /// Seconds asleep.
    public var totalSleepDuration: Double
    /// Time asleep over time in bed, 0...1.
    public var sleepEfficiency: Double
    /// The identifier of the time zone the sleeper's clock was in (e.g. `Europe/Berlin`).
    public var timeZoneIdentifier: String
    /// The calendar weekday of the night (1 Sunday … 7 Saturday): the weekday of the local date 12 hours
    /// before going to bed, so a bedtime at 00:30 on Saturday is a Friday night.
    public var nightWeekday: Int
    /// Whether the next day was free (no alarm, no work); change it to follow the sleeper's own week.
    public var isFreeDay: Bool
    /// Whether the sleep figures were measured (false: staging was missing and the whole time in bed was
    /// taken as sleep).
    public var isMeasured: Bool

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - inBedStart: Going to bed.
    ///   - inBedEnd: Getting up.
    ///   - sleepOnset: The start of the first sleep.
    ///   - finalWake: The end of the last sleep.
    ///   - totalSleepDuration: Seconds asleep.
    ///   - sleepEfficiency: Time asleep over time in bed, 0...1.
    ///   - timeZoneIdentifier: The sleeper's time zone.
    ///   - nightWeekday: The weekday of the night, 1 Sunday … 7 Saturday.
    ///   - isFreeDay: Whether the next day was free.
    ///   - isMeasured: Whether the sleep figures were measured.
    public init(
        sessionId: UUID, inBedStart: Date, inBedEnd: Date, sleepOnset: Date, finalWake: Date,
        totalSleepDuration: Double, sleepEfficiency: Double, timeZoneIdentifier: String, nightWeekday: Int,
        isFreeDay: Bool, isMeasured: Bool = true
    ) {
        self.sessionId = sessionId
        self.inBedStart = inBedStart
        self.inBedEnd = inBedEnd
        self.sleepOnset = sleepOnset
        self.finalWake = finalWake
        self.totalSleepDuration = totalSleepDuration
        self.sleepEfficiency = sleepEfficiency
        self.timeZoneIdentifier = timeZoneIdentifier
        self.nightWeekday = nightWeekday
        self.isFreeDay = isFreeDay
        self.isMeasured = isMeasured
    }

    /// The entry's time zone (GMT when the identifier is unknown on this system).
    var timeZone: TimeZone { TimeZone(identifier: timeZoneIdentifier) ?? TimeZone(secondsFromGMT: 0)! }

    /// Seconds from sleep onset to final wake (the MCTQ's sleep duration, wake after onset included).
    var sleepPeriod: TimeInterval { max(0, finalWake.timeIntervalSince(sleepOnset)) }

    /// The calendar weekday of the night starting at `inBedStart` in a time zone.
    ///
    /// - Parameters:
    ///   - inBedStart: Going to bed.
    ///   - timeZone: The sleeper's zone.
    /// - Returns: 1 Sunday … 7 Saturday.
    static func nightWeekday(inBedStart: Date, timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.component(.weekday, from: inBedStart.addingTimeInterval(-12 * 3600))
    }
}

extension AnalysisResult {
    /// The night as a sleep-score history entry, to persist for later nights' scores.
    ///
    /// Sleep onset, final wake, time asleep and efficiency come from `statistics`, else from the hypnogram,
    /// else from `startTime` and `endTime` (then `isMeasured` is false).
    ///
    /// - Parameter freeNights: The weekdays (1 Sunday … 7 Saturday) of nights before a free day; Friday and
    ///   Saturday by default.
    /// - Returns: The entry, in the result's time zone.
    public func toSleepScoreHistoryEntry(
        freeNights: Set<Int> = SleepScoreHistoryEntry.defaultFreeNights
    ) -> SleepScoreHistoryEntry {
        let night = NightSummary(self)
        let weekday = SleepScoreHistoryEntry.nightWeekday(inBedStart: startTime, timeZone: timeZone)
        return SleepScoreHistoryEntry(
            sessionId: sessionId, inBedStart: night.inBed.start, inBedEnd: night.inBed.end,
            sleepOnset: night.sleepOnset, finalWake: night.finalWake, totalSleepDuration: night.totalSleep,
            sleepEfficiency: night.efficiency, timeZoneIdentifier: timeZone.identifier, nightWeekday: weekday,
            isFreeDay: freeNights.contains(weekday), isMeasured: night.hasStaging
        )
    }
}

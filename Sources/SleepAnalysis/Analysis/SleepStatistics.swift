import Foundation

/// A run of snoring: snore events close enough together to count as one session.
public struct SnoreSession: Sendable, Hashable, Codable {
    /// When the session started and ended.
    public var interval: DateInterval
    /// How many snoring events it holds.
    public var eventCount: Int
    /// Seconds of snoring inside it: its stretches of snoring, the breath between snores included
    /// (`SnoreSessionBuilder`).
    public var snoreDuration: Double

    /// Creates a snore session.
    ///
    /// - Parameters:
    ///   - interval: When the session started and ended.
    ///   - eventCount: How many snoring events it holds.
    ///   - snoreDuration: Seconds of snoring inside it (`SnoreSessionBuilder` measures it).
    public init(interval: DateInterval, eventCount: Int = 0, snoreDuration: Double = 0) {
        self.interval = interval
        self.eventCount = eventCount
        self.snoreDuration = snoreDuration
    }
}

/// Aggregate figures for a night. Durations are in seconds.
public struct SleepStatistics: Sendable, Hashable, Codable {
    /// Time asleep (light, deep and REM).
    public var totalSleepDuration: Double?
    /// Time from the start of the session to the first epoch of sleep.
    public var sleepOnsetLatency: Double?
    /// Time asleep divided by time in bed, 0...1.
    public var sleepEfficiency: Double?
    /// The end of the last sleep epoch.
    public var finalWakeTime: Date?
    /// Awakenings after sleep onset (runs of wake between sleep).
    public var numberOfAwakenings: Int?
    /// Seconds of snoring.
    public var snoreTime: Double?
    /// Runs of snoring.
    public var snoreSessions: [SnoreSession]?
    /// Seconds in each stage.
    public var sleepStageDurations: [SleepStage: Double]?
    /// Time in bed: the length of the session.
    public var timeInBed: Double?
    /// Wake after sleep onset: seconds awake between sleep onset and final wake.
    public var wakeAfterSleepOnset: Double?
    /// Number of snoring events.
    public var snoreCount: Int?

    /// Creates statistics; every field is optional.
    ///
    /// - Parameters:
    ///   - totalSleepDuration: Time asleep (light, deep and REM).
    ///   - sleepOnsetLatency: Time from the start of the session to the first epoch of sleep.
    ///   - sleepEfficiency: Time asleep divided by time in bed, 0...1.
    ///   - finalWakeTime: The end of the last sleep epoch.
    ///   - numberOfAwakenings: Awakenings after sleep onset (runs of wake between sleep).
    ///   - snoreTime: Seconds of snoring.
    ///   - snoreSessions: Runs of snoring.
    ///   - sleepStageDurations: Seconds in each stage.
    ///   - timeInBed: Time in bed: the length of the session.
    ///   - wakeAfterSleepOnset: Wake after sleep onset: seconds awake between sleep onset and final wake.
    ///   - snoreCount: Number of snoring events.
    public init(
        totalSleepDuration: Double? = nil, sleepOnsetLatency: Double? = nil, sleepEfficiency: Double? = nil,
        finalWakeTime: Date? = nil, numberOfAwakenings: Int? = nil, snoreTime: Double? = nil,
        snoreSessions: [SnoreSession]? = nil, sleepStageDurations: [SleepStage: Double]? = nil,
        timeInBed: Double? = nil, wakeAfterSleepOnset: Double? = nil, snoreCount: Int? = nil
    ) {
        self.totalSleepDuration = totalSleepDuration
        self.sleepOnsetLatency = sleepOnsetLatency
        self.sleepEfficiency = sleepEfficiency
        self.finalWakeTime = finalWakeTime
        self.numberOfAwakenings = numberOfAwakenings
        self.snoreTime = snoreTime
        self.snoreSessions = snoreSessions
        self.sleepStageDurations = sleepStageDurations
        self.timeInBed = timeInBed
        self.wakeAfterSleepOnset = wakeAfterSleepOnset
        self.snoreCount = snoreCount
    }
}

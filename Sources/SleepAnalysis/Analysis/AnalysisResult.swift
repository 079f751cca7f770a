import Foundation

/// Everything a session produced: stages, events, breathing, statistics and audio health.
public struct AnalysisResult: Sendable, Hashable, Codable {
    /// The session.
    public var sessionId: UUID
    /// When the session started.
    public var startTime: Date
    /// When the session ended.
    public var endTime: Date
    /// The time zone in force when the session started.
    public var timeZone: TimeZone
    /// Detected events, in order of start time.
    public var events: [Event]
    /// Breathing-rate measurements, in time order.
    public var breathingRates: [BreathingRate]
    /// Whole-night staging, as runs of one stage.
    public var sleepStageIntervals: [SleepStageInterval]
    /// The stages published in real time during the session, as runs of one stage.
    public var realTimeSleepStageIntervals: [SleepStageInterval]
    /// Whole-night staging per 30-second epoch, with probabilities.
    public var sleepStagePredictions: [SleepStagePrediction]
    /// Aggregate figures, when staging ran.
    public var statistics: SleepStatistics?
    /// Audio input health, when audio was analysed.
    public var audioStatistics: AudioStatistics?
    /// The smart alarm's life-cycle events during the session (armed, triggered), in order. Not part of the
    /// `Codable` form; `SmartAlarmEvent.json` gives each one's JSON.
    public var smartAlarmEvents: [SmartAlarmEvent] = []

    private enum CodingKeys: String, CodingKey {
        case sessionId, startTime, endTime, timeZone, events, breathingRates, sleepStageIntervals
        case realTimeSleepStageIntervals, sleepStagePredictions, statistics, audioStatistics
    }

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - startTime: When the session started.
    ///   - endTime: When the session ended.
    ///   - timeZone: The time zone in force when the session started.
    ///   - events: Detected events, in order of start time.
    ///   - breathingRates: Breathing-rate measurements, in time order.
    ///   - sleepStageIntervals: Whole-night staging, as runs of one stage.
    ///   - realTimeSleepStageIntervals: The stages published in real time during the session, as runs of one stage.
    ///   - sleepStagePredictions: Whole-night staging per 30-second epoch, with probabilities.
    ///   - statistics: Aggregate figures, when staging ran.
    ///   - audioStatistics: Audio input health, when audio was analysed.
    ///   - smartAlarmEvents: The smart alarm's life-cycle events during the session (armed, triggered), in order. Not
    ///     part of the `Codable` form; `SmartAlarmEvent.json` gives each one's JSON.
    public init(
        sessionId: UUID, startTime: Date, endTime: Date, timeZone: TimeZone = .current, events: [Event] = [],
        breathingRates: [BreathingRate] = [], sleepStageIntervals: [SleepStageInterval] = [],
        realTimeSleepStageIntervals: [SleepStageInterval] = [], sleepStagePredictions: [SleepStagePrediction] = [],
        statistics: SleepStatistics? = nil, audioStatistics: AudioStatistics? = nil,
        smartAlarmEvents: [SmartAlarmEvent] = []
    ) {
        self.sessionId = sessionId
        self.startTime = startTime
        self.endTime = endTime
        self.timeZone = timeZone
        self.events = events
        self.breathingRates = breathingRates
        self.sleepStageIntervals = sleepStageIntervals
        self.realTimeSleepStageIntervals = realTimeSleepStageIntervals
        self.sleepStagePredictions = sleepStagePredictions
        self.statistics = statistics
        self.audioStatistics = audioStatistics
        self.smartAlarmEvents = smartAlarmEvents
    }
}

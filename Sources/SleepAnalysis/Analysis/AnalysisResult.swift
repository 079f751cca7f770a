import Foundation

/// Everything a session produced: stages, events, breathing, statistics and audio health.
public struct AnalysisResult: Sendable, Hashable, Codable {
    /// The session.
    public var sessionId: UUID
    /// When the session started.
    public var startTime: Date
    /// When the session ended.
    public var endTime: Date
    /// The time zone in force when the session started (encoded as its IANA identifier).
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
    /// What the input lowered (a low sample rate, repaired samples, sensor readings outside the recording), in
    /// the order found; empty for clean input. Encoded only when not empty.
    public var warnings: [AnalysisWarning] = []
    /// Which inputs staged the night and whether that mode is validated on real data; nil when it was not staged.
    public var stagingBasis: StagingBasis?

    private enum CodingKeys: String, CodingKey {
        case sessionId, startTime, endTime, timeZone, events, breathingRates, sleepStageIntervals
        case realTimeSleepStageIntervals, sleepStagePredictions, statistics, audioStatistics, warnings, stagingBasis
        case scoreUnavailableReason, confidence
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
    ///   - warnings: What the input lowered, in the order found.
    ///   - stagingBasis: Which inputs staged the night; nil when it was not staged.
    public init(
        sessionId: UUID, startTime: Date, endTime: Date, timeZone: TimeZone = .current, events: [Event] = [],
        breathingRates: [BreathingRate] = [], sleepStageIntervals: [SleepStageInterval] = [],
        realTimeSleepStageIntervals: [SleepStageInterval] = [], sleepStagePredictions: [SleepStagePrediction] = [],
        statistics: SleepStatistics? = nil, audioStatistics: AudioStatistics? = nil,
        smartAlarmEvents: [SmartAlarmEvent] = [], warnings: [AnalysisWarning] = [],
        stagingBasis: StagingBasis? = nil
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
        self.warnings = warnings
        self.stagingBasis = stagingBasis
    }

    /// Decodes a result; one encoded before warnings existed has none; the time zone is read as an identifier or,
    /// as results stored before version 1.0 hold it, as Foundation's `{"identifier": …}` object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sessionId = try container.decode(UUID.self, forKey: .sessionId)
        startTime = try container.decode(Date.self, forKey: .startTime)
        endTime = try container.decode(Date.self, forKey: .endTime)
        timeZone = try Self.decodeTimeZone(container)
        events = try container.decode([Event].self, forKey: .events)
        breathingRates = try container.decode([BreathingRate].self, forKey: .breathingRates)
        sleepStageIntervals = try container.decode([SleepStageInterval].self, forKey: .sleepStageIntervals)
        realTimeSleepStageIntervals = try container.decode(
            [SleepStageInterval].self, forKey: .realTimeSleepStageIntervals)
        sleepStagePredictions = try container.decode([SleepStagePrediction].self, forKey: .sleepStagePredictions)
        statistics = try container.decodeIfPresent(SleepStatistics.self, forKey: .statistics)
        audioStatistics = try container.decodeIfPresent(AudioStatistics.self, forKey: .audioStatistics)
        warnings = try container.decodeIfPresent([AnalysisWarning].self, forKey: .warnings) ?? []
        stagingBasis = try container.decodeIfPresent(StagingBasis.self, forKey: .stagingBasis)
    }

    /// Encodes the result; `warnings` only when there are some, so clean nights encode as before;
    /// `scoreUnavailableReason` when the night cannot be scored and `confidence` when there is one (both are
    /// derived, so decoding ignores them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sessionId, forKey: .sessionId)
        try container.encode(startTime, forKey: .startTime)
        try container.encode(endTime, forKey: .endTime)
        try container.encode(timeZone.identifier, forKey: .timeZone)
        try container.encode(events, forKey: .events)
        try container.encode(breathingRates, forKey: .breathingRates)
        try container.encode(sleepStageIntervals, forKey: .sleepStageIntervals)
        try container.encode(realTimeSleepStageIntervals, forKey: .realTimeSleepStageIntervals)
        try container.encode(sleepStagePredictions, forKey: .sleepStagePredictions)
        try container.encodeIfPresent(statistics, forKey: .statistics)
        try container.encodeIfPresent(audioStatistics, forKey: .audioStatistics)
        if !warnings.isEmpty { try container.encode(warnings, forKey: .warnings) }
        try container.encodeIfPresent(stagingBasis, forKey: .stagingBasis)
        try container.encodeIfPresent(scoreUnavailableReason, forKey: .scoreUnavailableReason)
        try container.encodeIfPresent(confidence, forKey: .confidence)
    }

    /// The time zone of a decoded result: an IANA identifier, or Foundation's keyed form of `TimeZone`.
    private static func decodeTimeZone(_ container: KeyedDecodingContainer<CodingKeys>) throws -> TimeZone {
        guard let identifier = try? container.decode(String.self, forKey: .timeZone) else {
            return try container.decode(TimeZone.self, forKey: .timeZone)
        }
        guard let zone = TimeZone(identifier: identifier) else {
            throw DecodingError.dataCorruptedError(
                forKey: .timeZone, in: container, debugDescription: "'\(identifier)' is not a time zone identifier")
        }
        return zone
    }
}

import Foundation

/// A night in the session store: when it was, where, and its summary figures (the full result is
/// `SessionStore.result(sessionId:)`).
public struct StoredNight: Sendable, Hashable, Codable {
    /// The session.
    public var sessionId: UUID
    /// When the session started.
    public var startTime: Date
    /// When it ended.
    public var endTime: Date
    /// The time zone in force at its start.
    public var timeZone: TimeZone
    /// The night's statistics, when staging ran.
    public var statistics: SleepStatistics?
    /// How many events were detected.
    public var eventCount: Int
    /// How many snoring events were detected.
    public var snoringEventCount: Int
    /// The mean of the breathing-rate measurements, in breaths per minute, if any were made.
    public var meanBreathingRate: Double?

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - startTime: When the session started.
    ///   - endTime: When it ended.
    ///   - timeZone: The time zone in force at its start.
    ///   - statistics: The night's statistics, when staging ran.
    ///   - eventCount: How many events were detected.
    ///   - snoringEventCount: How many snoring events were detected.
    ///   - meanBreathingRate: The mean of the breathing-rate measurements, in breaths per minute, if any were made.
    public init(
        sessionId: UUID, startTime: Date, endTime: Date, timeZone: TimeZone, statistics: SleepStatistics?,
        eventCount: Int, snoringEventCount: Int, meanBreathingRate: Double?
    ) {
        self.sessionId = sessionId
        self.startTime = startTime
        self.endTime = endTime
        self.timeZone = timeZone
        self.statistics = statistics
        self.eventCount = eventCount
        self.snoringEventCount = snoringEventCount
        self.meanBreathingRate = meanBreathingRate
    }

    /// Summarises a result.
    ///
    /// - Parameter result: The night's result.
    public init(result: AnalysisResult) {
        let rates = result.breathingRates.map(\.bpm).filter(\.isFinite)
        self.init(
            sessionId: result.sessionId, startTime: result.startTime, endTime: max(result.startTime, result.endTime),
            timeZone: result.timeZone, statistics: result.statistics, eventCount: result.events.count,
            snoringEventCount: result.events.filter { $0.type == .snoring }.count,
            meanBreathingRate: rates.isEmpty ? nil : rates.reduce(0, +) / Double(rates.count))
    }

    /// The session's span.
    public var interval: DateInterval { DateInterval(start: startTime, end: endTime) }
}

/// A HealthKit-like category sample of one sleep stage, as `SessionStore.stageSamples(in:)` returns them.
public struct SleepStageSample: Sendable, Hashable, Codable {
    /// The session it belongs to.
    public var sessionId: UUID
    /// The stage.
    public var stage: SleepStage
    /// When the stage started.
    public var startDate: Date
    /// When it ended.
    public var endDate: Date

    /// Creates a sample.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - stage: The stage.
    ///   - startDate: When the stage started.
    ///   - endDate: When it ended.
    public init(sessionId: UUID, stage: SleepStage, startDate: Date, endDate: Date) {
        self.sessionId = sessionId
        self.stage = stage
        self.startDate = startDate
        self.endDate = endDate
    }

    /// The HealthKit category value of the stage.
    public var healthKitValue: HealthKitSleepValue { HealthKitSleepValue(stage: stage) }

    /// The sample's span.
    public var interval: DateInterval { DateInterval(start: startDate, end: max(startDate, endDate)) }
}

/// A position in the store's history of changes, for anchored (incremental) queries.
///
/// Anchors only grow: each save or delete takes the next one. Keep the anchor `changes(since:)` returns
/// (it is `Codable`) and pass it next time to receive only what changed after it.
public struct SessionStoreAnchor: Sendable, Hashable, Codable, Comparable {
    /// The change counter the anchor stands for.
    public var rawValue: Int64

    /// Creates an anchor from a stored counter.
    ///
    /// - Parameter rawValue: The stored value, as `rawValue` returned it.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// Orders anchors by their counter.
    ///
    /// - Parameters:
    ///   - lhs: An anchor.
    ///   - rhs: Another anchor.
    /// - Returns: True when `lhs` was issued before `rhs`.
    public static func < (lhs: SessionStoreAnchor, rhs: SessionStoreAnchor) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A change to the session store, published on `SessionStore.changes`.
public enum SessionStoreChange: Sendable, Hashable {
    /// A night was saved (added, or replaced by a newer result for the same session).
    case saved(StoredNight, anchor: SessionStoreAnchor)
    /// A night was deleted.
    case deleted(sessionId: UUID, anchor: SessionStoreAnchor)

    /// The session concerned.
    public var sessionId: UUID {
        switch self {
        case .saved(let night, _): night.sessionId
        case .deleted(let sessionId, _): sessionId
        }
    }

    /// The anchor the change took.
    public var anchor: SessionStoreAnchor {
        switch self {
        case .saved(_, let anchor), .deleted(_, let anchor): anchor
        }
    }
}

extension AnalysisResult {
    /// The stages the store indexes and exports: the whole-night stages, or the real-time ones without them.
    var storedStageIntervals: [SleepStageInterval] {
        sleepStageIntervals.isEmpty ? realTimeSleepStageIntervals : sleepStageIntervals
    }
}

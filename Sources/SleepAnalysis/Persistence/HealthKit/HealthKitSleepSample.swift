import Foundation

/// A HealthKit-style sleep-analysis category sample (`HKCategorySample` of type `sleepAnalysis`).
public struct HealthKitSleepSample: Sendable, Hashable, Codable {
    /// The category value.
    public var value: HealthKitSleepValue
    /// When the sample starts.
    public var startDate: Date
    /// When the sample ends.
    public var endDate: Date
    /// The session it comes from.
    public var sessionId: UUID
    /// The identifier of the session's time zone (HealthKit's `HKMetadataKeyTimeZone`).
    public var timeZone: String

    /// Creates a sample.
    ///
    /// - Parameters:
    ///   - value: The category value.
    ///   - startDate: When the sample starts.
    ///   - endDate: When the sample ends.
    ///   - sessionId: The session it comes from.
    ///   - timeZone: The identifier of the session's time zone (HealthKit's `HKMetadataKeyTimeZone`).
    public init(value: HealthKitSleepValue, startDate: Date, endDate: Date, sessionId: UUID, timeZone: String) {
        self.value = value
        self.startDate = startDate
        self.endDate = endDate
        self.sessionId = sessionId
        self.timeZone = timeZone
    }

    /// The samples HealthKit would hold for a night: one `inBed` sample for the whole session, then one
    /// sample per stage interval (light → `asleepCore`, deep → `asleepDeep`, REM → `asleepREM`,
    /// awake → `awake`).
    ///
    /// The whole-night stages are used; a result without them (staging was off or too short) falls back to
    /// the stages published in real time.
    ///
    /// - Parameter result: The night.
    /// - Returns: The `inBed` sample first, then the stage samples in time order.
    public static func samples(for result: AnalysisResult) -> [HealthKitSleepSample] {
        let zone = result.timeZone.identifier
        let inBed = HealthKitSleepSample(
            value: .inBed, startDate: result.startTime, endDate: max(result.startTime, result.endTime),
            sessionId: result.sessionId, timeZone: zone)
        let stageSamples = result.storedStageIntervals.sorted { $0.interval.start < $1.interval.start }.map {
            HealthKitSleepSample(
                value: HealthKitSleepValue(stage: $0.stage), startDate: $0.interval.start, endDate: $0.interval.end,
                sessionId: result.sessionId, timeZone: zone)
        }
        return [inBed] + stageSamples
    }
}

import Foundation

/// Stored nights as a JSON document: what `sleepanalysis history --format json` writes
/// (`Schemas/night-history.schema.json`), `schemaVersion` and `nights`, earliest first.
///
/// ```swift
/// let nights = try store.nights(in: DateInterval(start: lastWeek, end: now))
/// print(String(decoding: try SleepAnalysisJSON.encode(NightHistoryDocument(nights)), as: UTF8.self))
/// ```
public struct NightHistoryDocument: Sendable, Hashable, Encodable {
    /// One night's summary: its times, its statistics' figures and its counts; a figure the night lacks is
    /// omitted.
    public struct Night: Sendable, Hashable, Encodable {
        /// The session.
        public var sessionId: UUID
        /// When the session started.
        public var startTime: Date
        /// When it ended.
        public var endTime: Date
        /// The IANA identifier of the time zone in force at its start.
        public var timeZone: String
        /// Seconds from start to end.
        public var timeInBed: Double
        /// Seconds asleep.
        public var totalSleepDuration: Double?
        /// Seconds from the start to the first sleep.
        public var sleepOnsetLatency: Double?
        /// Seconds awake after the first sleep, before the final awakening.
        public var wakeAfterSleepOnset: Double?
        /// Seconds of snoring.
        public var snoreTime: Double?
        /// Time asleep over time in bed, 0...1.
        public var sleepEfficiency: Double?
        /// Awakenings after the first sleep.
        public var numberOfAwakenings: Int?
        /// Events detected.
        public var eventCount: Int
        /// Snoring events detected.
        public var snoringEventCount: Int
        /// The mean breathing rate, in breaths per minute.
        public var meanBreathingRate: Double?

        /// The summary of a stored night.
        ///
        /// - Parameter night: The night.
        public init(_ night: StoredNight) {
            let statistics = night.statistics
            sessionId = night.sessionId
            startTime = night.startTime
            endTime = night.endTime
            timeZone = night.timeZone.identifier
            timeInBed = night.endTime.timeIntervalSince(night.startTime)
            totalSleepDuration = statistics?.totalSleepDuration
            sleepOnsetLatency = statistics?.sleepOnsetLatency
            wakeAfterSleepOnset = statistics?.wakeAfterSleepOnset
            snoreTime = statistics?.snoreTime
            sleepEfficiency = statistics?.sleepEfficiency
            numberOfAwakenings = statistics?.numberOfAwakenings
            eventCount = night.eventCount
            snoringEventCount = night.snoringEventCount
            meanBreathingRate = night.meanBreathingRate
        }
    }

    /// The nights, in the order given.
    public var nights: [Night]

    /// Creates the document of some stored nights.
    ///
    /// - Parameter nights: The nights, earliest first.
    public init(_ nights: [StoredNight]) {
        self.nights = nights.map(Night.init)
    }

    /// Encodes `schemaVersion` and `nights`.
    ///
    /// - Parameter encoder: The encoder.
    public func encode(to encoder: any Encoder) throws {
        try SleepAnalysisJSON.encodeDocument(nights, under: "nights", to: encoder)
    }
}

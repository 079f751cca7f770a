import Foundation

/// A person's nights side by side: each night's total sleep, efficiency, sleep score, snoring time, breathing rate
/// and sleep midpoint, their averages, how regular the midpoint is, and the last night against the person's own
/// baseline (the nights before it). `NightTrendsHTML` draws them.
///
/// ```swift
/// let store = try SessionStore(readingFrom: directory)
/// let (results, _) = try store.readableResults(in: DateInterval(start: fourWeeksAgo, end: now))
/// let trends = NightTrends(results: results)
/// print(trends.average(\.totalSleepDuration).map { $0 / 3600 } ?? 0, trends.midpointRegularity ?? 0)
/// ```
public struct NightTrends: Sendable, Hashable {
    /// One night's figures; a figure the night lacks (not staged, no breathing measured) is nil.
    public struct Night: Sendable, Hashable {
        /// The session.
        public var sessionId: UUID
        /// When the session started.
        public var startTime: Date
        /// When it ended.
        public var endTime: Date
        /// The time zone in force at its start.
        public var timeZone: TimeZone
        /// Seconds asleep.
        public var totalSleepDuration: Double?
        /// Time asleep over time in bed, 0...1.
        public var sleepEfficiency: Double?
        /// The sleep score, 0...100 (`SleepScoring.score` with the earlier nights as history); nil for a night
        /// that cannot be scored.
        public var score: Double?
        /// Seconds of snoring.
        public var snoreTime: Double?
        /// The mean of the breathing-rate measurements, breaths per minute.
        public var meanBreathingRate: Double?
        /// Halfway between falling asleep and the final awakening.
        public var sleepMidpoint: Date?

        /// Creates a night's figures.
        ///
        /// - Parameters:
        ///   - sessionId: The session.
        ///   - startTime: When the session started.
        ///   - endTime: When it ended.
        ///   - timeZone: The time zone in force at its start.
        ///   - totalSleepDuration: Seconds asleep.
        ///   - sleepEfficiency: Time asleep over time in bed, 0...1.
        ///   - score: The sleep score, 0...100.
        ///   - snoreTime: Seconds of snoring.
        ///   - meanBreathingRate: The mean breathing rate, breaths per minute.
        ///   - sleepMidpoint: Halfway between falling asleep and the final awakening.
        public init(
            sessionId: UUID, startTime: Date, endTime: Date, timeZone: TimeZone, totalSleepDuration: Double?,
            sleepEfficiency: Double?, score: Double?, snoreTime: Double?, meanBreathingRate: Double?,
            sleepMidpoint: Date?
        ) {
            self.sessionId = sessionId
            self.startTime = startTime
            self.endTime = endTime
            self.timeZone = timeZone
            self.totalSleepDuration = totalSleepDuration
            self.sleepEfficiency = sleepEfficiency
            self.score = score
            self.snoreTime = snoreTime
            self.meanBreathingRate = meanBreathingRate
            self.sleepMidpoint = sleepMidpoint
        }

        /// The figures of `result`, scored with `history` (earlier nights; later ones are ignored).
        ///
        /// - Parameters:
        ///   - result: The night's result.
        ///   - history: Earlier nights as sleep-score history (`AnalysisResult.toSleepScoreHistoryEntry()`).
        public init(result: AnalysisResult, history: [SleepScoreHistoryEntry] = []) {
            let stats = result.statistics
            let rates = result.breathingRates.map(\.bpm).filter(\.isFinite)
            var midpoint: Date?
            if let stats, let latency = stats.sleepOnsetLatency, let wake = stats.finalWakeTime {
                let onset = result.startTime.addingTimeInterval(latency)
                midpoint = onset.addingTimeInterval(max(0, wake.timeIntervalSince(onset)) / 2)
            }
            self.init(
                sessionId: result.sessionId, startTime: result.startTime,
                endTime: max(result.startTime, result.endTime),
                timeZone: result.timeZone, totalSleepDuration: stats?.totalSleepDuration,
                sleepEfficiency: stats?.sleepEfficiency,
                score: SleepScoring.score(result: result, history: history).map { Double($0.total) * 100 },
                snoreTime: stats?.snoreTime,
                meanBreathingRate: rates.isEmpty ? nil : rates.reduce(0, +) / Double(rates.count),
                sleepMidpoint: midpoint)
        }

        /// The sleep midpoint as minutes after midnight at the start of the night's evening
        /// (`02:30` after a night begun at 23:00 is 1,590): comparable across nights without a jump at midnight.
        public var sleepMidpointMinutes: Double? {
            guard let sleepMidpoint else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            let evening = calendar.startOfDay(for: ReportText.nightDate(startTime, timeZone))
            return sleepMidpoint.timeIntervalSince(evening) / 60
        }
    }

    /// The nights, earliest first.
    public var nights: [Night]

    /// Creates trends from nights' figures.
    ///
    /// - Parameter nights: The nights, any order (kept earliest first).
    public init(nights: [Night]) {
        self.nights = nights.sorted { $0.startTime < $1.startTime }
    }

    /// Creates trends from nights' results, each scored with the others as history (`SleepScoring.score` uses the
    /// 28 days before a night and ignores later ones).
    ///
    /// - Parameters:
    ///   - results: The nights shown.
    ///   - history: More results used only as score history (the nights before the first shown); none by default.
    public init(results: [AnalysisResult], history: [AnalysisResult] = []) {
        let entries = (history + results).map { $0.toSleepScoreHistoryEntry() }
        self.init(nights: results.map { Night(result: $0, history: entries) })
    }

    /// The mean of a figure over the nights that have it; nil when none does.
    ///
    /// - Parameter figure: The figure (`\.totalSleepDuration`).
    /// - Returns: The mean.
    public func average(_ figure: KeyPath<Night, Double?>) -> Double? {
        Self.mean(nights.compactMap { $0[keyPath: figure] })
    }

    /// How regular the sleep midpoint is: the standard deviation of `Night.sleepMidpointMinutes` over the nights
    /// that have one, in minutes; nil with fewer than two.
    public var midpointRegularity: Double? {
        let minutes = nights.compactMap(\.sleepMidpointMinutes)
        guard minutes.count >= 2, let mean = Self.mean(minutes) else { return nil }
        return (minutes.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(minutes.count - 1)).squareRoot()
    }

    /// The last night.
    public var lastNight: Night? { nights.last }

    /// The person's baseline for a figure: its mean over the nights before the last (at most `baselineNights`);
    /// nil when none of them has it.
    ///
    /// - Parameter figure: The figure (`\.totalSleepDuration`).
    /// - Returns: The mean.
    public func baseline(_ figure: KeyPath<Night, Double?>) -> Double? {
        Self.mean(nights.dropLast().suffix(Self.baselineNights).compactMap { $0[keyPath: figure] })
    }

    /// How many nights before the last make the baseline.
    public static let baselineNights = 28

    private static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}

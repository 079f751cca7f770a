import Foundation

/// Assembles a session's `AnalysisResult` from what its engines produced.
struct ResultBuilder {
    var sessionId: UUID
    var startTime: Date
    var endTime: Date
    var timeZone: TimeZone
    var events: [Event]
    var breathingRates: [BreathingRate]
    var realTimePredictions: [SleepStagePrediction]
    /// Whole-night predictions; nil when the licence leaves whole-night staging out.
    var wholeNight: [SleepStagePrediction]?
    /// Which inputs staged the night, when it was staged.
    var stagingBasis: StagingBasis?
    var audioStatistics: AudioStatistics?
    var includeRealTime: Bool
    var smartAlarmEvents: [SmartAlarmEvent]

    /// The result.
    func build() -> AnalysisResult {
        // In time order whatever the order they were found, journaled and restored in (a resumed night).
        let events = events.sorted { $0.interval.start < $1.interval.start }
        let predictions = clipped(wholeNight ?? [])
        let realTimePredictions = clipped(realTimePredictions)
        let statistics = wholeNight.map { _ in
            SleepStatisticsCalculator().statistics(
                predictions: predictions, session: DateInterval(start: startTime, end: endTime), events: events,
                snoreSessions: SnoreSessionBuilder().sessions(from: events))
        }
        return AnalysisResult(
            sessionId: sessionId, startTime: startTime, endTime: endTime, timeZone: timeZone, events: events,
            breathingRates: breathingRates,
            sleepStageIntervals: SleepStageIntervals.from(predictions),
            realTimeSleepStageIntervals: includeRealTime ? SleepStageIntervals.from(realTimePredictions) : [],
            sleepStagePredictions: predictions, statistics: statistics, audioStatistics: audioStatistics,
            smartAlarmEvents: smartAlarmEvents, stagingBasis: predictions.isEmpty ? nil : stagingBasis)
    }

    /// The epochs within the session: a last epoch staged from its first half ends where the session ends, so no
    /// stage outlasts the time in bed (a 20-second clip is not "light 1 min").
    private func clipped(_ predictions: [SleepStagePrediction]) -> [SleepStagePrediction] {
        predictions.compactMap { prediction in
            let start = max(prediction.interval.start, startTime)
            let end = min(prediction.interval.end, endTime)
            guard end > start else { return nil }
            var inSession = prediction
            inSession.interval = DateInterval(start: start, end: end)
            return inSession
        }
    }
}

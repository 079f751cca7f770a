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
    var audioStatistics: AudioStatistics?
    var includeRealTime: Bool
    var smartAlarmEvents: [SmartAlarmEvent]

    /// The result.
    func build() -> AnalysisResult {
        let predictions = wholeNight ?? []
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
            smartAlarmEvents: smartAlarmEvents)
    }
}

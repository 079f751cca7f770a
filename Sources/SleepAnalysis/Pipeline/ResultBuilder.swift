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

    /// The result.
    func build() -> AnalysisResult {
        let predictions = wholeNight ?? []
        let snoreSessions = SnoreSessionBuilder.sessions(from: events)
        let statistics: SleepStatistics? =
            wholeNight.map { _ in
                SleepStatisticsCalculator.compute(
                    predictions: predictions, sessionStart: startTime, sessionEnd: endTime,
                    snoreSessions: snoreSessions, events: events)
            }
        return AnalysisResult(
            sessionId: sessionId, startTime: startTime, endTime: endTime, timeZone: timeZone, events: events,
            breathingRates: breathingRates,
            sleepStageIntervals: SleepStageIntervals.merge(predictions),
            realTimeSleepStageIntervals: includeRealTime ? SleepStageIntervals.merge(realTimePredictions) : [],
            sleepStagePredictions: predictions, statistics: statistics, audioStatistics: audioStatistics)
    }
}

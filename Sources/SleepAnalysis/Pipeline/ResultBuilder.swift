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
        return AnalysisResult(
            sessionId: sessionId, startTime: startTime, endTime: endTime, timeZone: timeZone, events: events,
            breathingRates: breathingRates,
            sleepStageIntervals: Self.runs(of: predictions),
            realTimeSleepStageIntervals: includeRealTime ? Self.runs(of: realTimePredictions) : [],
            sleepStagePredictions: predictions, statistics: nil, audioStatistics: audioStatistics,
            smartAlarmEvents: smartAlarmEvents)
    }

    /// Consecutive epochs of one stage merged into intervals.
    static func runs(of predictions: [SleepStagePrediction]) -> [SleepStageInterval] {
        var runs: [SleepStageInterval] = []
        for prediction in predictions {
            if let last = runs.last, last.stage == prediction.stage,
                abs(last.interval.end.timeIntervalSince(prediction.interval.start)) < 1e-6
            {
                runs[runs.count - 1].interval = DateInterval(start: last.interval.start, end: prediction.interval.end)
            } else {
                runs.append(SleepStageInterval(stage: prediction.stage, interval: prediction.interval))
            }
        }
        return runs
    }
}

import Foundation

@testable import SleepAnalysis

/// Small hand-made results for the session-store tests.
enum SessionStoreFixtures {
    /// Midnight UTC, 2026-11-01.
    static let november1 = Date(timeIntervalSince1970: 1_793_491_200)

    /// A night starting `hoursAfter` hours after `november1`, with the stages given as 30-s epoch runs.
    static func night(
        startingHoursAfter hoursAfter: Double,
        stages: [(SleepStage, epochs: Int)] = [(.awake, 2), (.light, 4), (.deep, 4), (.rem, 2)],
        timeZone: TimeZone = TimeZone(identifier: "Asia/Tokyo")!
    ) -> AnalysisResult {
        let sessionId = UUID()
        let start = november1 + hoursAfter * 3600
        var cursor = start
        var intervals: [SleepStageInterval] = []
        for (stage, epochs) in stages {
            let interval = DateInterval(start: cursor, duration: Double(epochs) * 30)
            intervals.append(SleepStageInterval(stage: stage, interval: interval))
            cursor = interval.end
        }
        let snore = Event(
            type: .snoring, interval: DateInterval(start: start + 100, duration: 3), probability: 0.8, source: .audio,
            sessionId: sessionId)
        let cough = Event(
            type: .coughing, interval: DateInterval(start: start + 200, duration: 1), probability: 0.7, source: .audio,
            sessionId: sessionId)
        let rates = [14.0, 16.0].enumerated().map {
            BreathingRate(
                timestamp: start + Double($0.offset + 1) * 60, bpm: $0.element, confidence: 0.9, sessionId: sessionId)
        }
        let asleep = intervals.filter { $0.stage != .awake }.map(\.interval.duration).reduce(0, +)
        return AnalysisResult(
            sessionId: sessionId, startTime: start, endTime: cursor, timeZone: timeZone, events: [snore, cough],
            breathingRates: rates, sleepStageIntervals: intervals,
            statistics: SleepStatistics(
                totalSleepDuration: asleep, sleepEfficiency: asleep / cursor.timeIntervalSince(start),
                timeInBed: cursor.timeIntervalSince(start)))
    }
}

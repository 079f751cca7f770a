import Foundation

@testable import SleepAnalysis

/// Whole nights for the trends tests: 7 to 8 hours in bed from about 23:00 in Stockholm, staged epoch by epoch in
/// sleep cycles, with snoring and breathing that vary from night to night; statistics as the analysis computes
/// them (`SleepStatisticsCalculator`).
enum TrendFixtures {
    static let zone = TimeZone(identifier: "Europe/Stockholm")!
    /// 2026-11-16 22:00 UTC, 23:00 in Stockholm: the first night's evening.
    static let firstEvening = Date(timeIntervalSince1970: 1_794_866_400)

    /// Night `index` (0 the first): in bed `index % 3 * 20` minutes after 23:00, asleep after `10 + index % 4 * 5`
    /// minutes, `4 + index % 2` sleep cycles of 90 minutes, awake for `index % 5 * 4` minutes in the middle,
    /// `index * 3` snores two minutes apart, breathing at `14 + index % 3` breaths per minute.
    static func night(_ index: Int) -> AnalysisResult {
        let sessionId = UUID()
        let start = firstEvening.addingTimeInterval(Double(index) * 86_400 + Double(index % 3 * 20) * 60)
        var runs: [(SleepStage, Int)] = [(.awake, (10 + index % 4 * 5) * 2)]
        for cycle in 0..<(4 + index % 2) {
            runs += [(.light, 80), (.deep, cycle < 2 ? 40 : 10), (.light, 30), (.rem, cycle < 2 ? 30 : 60)]
            if cycle == 1 && index % 5 > 0 { runs.append((.awake, index % 5 * 8)) }
        }
        runs.append((.awake, 10))
        var predictions: [SleepStagePrediction] = []
        var intervals: [SleepStageInterval] = []
        var cursor = start
        for (stage, epochs) in runs {
            intervals.append(
                SleepStageInterval(stage: stage, interval: DateInterval(start: cursor, duration: Double(epochs) * 30)))
            for _ in 0..<epochs {
                predictions.append(
                    SleepStagePrediction(
                        stage: stage, interval: DateInterval(start: cursor, duration: 30),
                        probabilities: SleepStageProbabilities(
                            awake: stage == .awake ? 0.85 : 0.05, rem: stage == .rem ? 0.85 : 0.05,
                            light: stage == .light ? 0.85 : 0.05, deep: stage == .deep ? 0.85 : 0.05)))
                cursor = cursor.addingTimeInterval(30)
            }
        }
        let snores = (0..<(index * 3)).map {
            Event(
                type: .snoring,
                interval: DateInterval(start: start.addingTimeInterval(3600 + Double($0) * 120), duration: 2),
                probability: 0.9, source: .audio, sessionId: sessionId)
        }
        let rates = (0..<60).map {
            BreathingRate(
                timestamp: start.addingTimeInterval(1800 + Double($0) * 60),
                bpm: Double(14 + index % 3) + Double($0 % 2) * 0.5,
                confidence: 0.9, sessionId: sessionId)
        }
        let session = DateInterval(start: start, end: cursor)
        return AnalysisResult(
            sessionId: sessionId, startTime: start, endTime: cursor, timeZone: zone, events: snores,
            breathingRates: rates, sleepStageIntervals: intervals, sleepStagePredictions: predictions,
            statistics: SleepStatisticsCalculator().statistics(
                predictions: predictions, session: session, events: snores),
            stagingBasis: StagingBasis(mode: .activity))
    }
}

import Foundation

@testable import SleepAnalysis

/// Hand-made nights for the sleep-score tests (UTC clock).
enum ScoringFixtures {
    static let utc = TimeZone(secondsFromGMT: 0)!

    /// Midnight UTC at the start of Tuesday 2026-12-01.
    static let tuesday = Date(timeIntervalSince1970: 1_796_083_200)

    /// An instant `hours` after Tuesday 2026-12-01 00:00 UTC plus `days` days (23.5 on day -1 is Monday 23:30).
    static func time(day: Int = 0, hours: Double) -> Date {
        tuesday.addingTimeInterval(Double(day) * 86_400 + hours * 3600)
    }

    /// A result whose whole-night staging is the given runs of 30-s epochs from `start`.
    static func result(start: Date, runs: [(SleepStage, Int)], asPredictions: Bool = false) -> AnalysisResult {
        var intervals: [SleepStageInterval] = []
        var cursor = start
        for (stage, epochs) in runs {
            let interval = DateInterval(start: cursor, duration: Double(epochs) * 30)
            intervals.append(SleepStageInterval(stage: stage, interval: interval))
            cursor = interval.end
        }
        var result = AnalysisResult(sessionId: UUID(), startTime: start, endTime: cursor, timeZone: utc)
        if asPredictions {
            result.sleepStagePredictions = intervals.flatMap { run in
                (0..<Int(run.interval.duration / 30)).map { index in
                    SleepStagePrediction(
                        stage: run.stage,
                        interval: DateInterval(start: run.interval.start + Double(index) * 30, duration: 30),
                        probabilities: SleepStageProbabilities(
                            awake: run.stage == .awake ? 1 : 0, rem: run.stage == .rem ? 1 : 0,
                            light: run.stage == .light ? 1 : 0, deep: run.stage == .deep ? 1 : 0
                        )
                    )
                }
            }
        } else {
            result.sleepStageIntervals = intervals
        }
        return result
    }

    /// The quality case: 1125 epochs in bed from Monday 22:00; latency 45 min, two awakenings of 12 and 18
    /// min (WASO 30 min), 7.5 h asleep (efficiency 0.80), deep 12 %, REM 15 %.
    static let qualityRuns: [(SleepStage, Int)] = [
        (.awake, 90), (.light, 200), (.deep, 108), (.light, 100), (.awake, 24), (.rem, 70), (.light, 200),
        (.awake, 36), (.rem, 65), (.light, 157), (.awake, 75),
    ]

    /// A result described only by statistics, in bed from `inBed` to `outOfBed`.
    static func result(
        inBed: Date, outOfBed: Date, latencyMinutes: Double, finalWake: Date, asleepHours: Double
    ) -> AnalysisResult {
        let statistics = SleepStatistics(
            totalSleepDuration: asleepHours * 3600, sleepOnsetLatency: latencyMinutes * 60,
            sleepEfficiency: asleepHours * 3600 / outOfBed.timeIntervalSince(inBed), finalWakeTime: finalWake
        )
        return AnalysisResult(
            sessionId: UUID(), startTime: inBed, endTime: outOfBed, timeZone: utc, statistics: statistics
        )
    }

    /// A history entry for the night starting `day` days from Tuesday: sleep onset at `onset` hours after that
    /// day's midnight (negative: the evening before), asleep for `hours`.
    static func entry(day: Int, onset: Double, hours: Double, free: Bool) -> SleepScoreHistoryEntry {
        let sleepOnset = time(day: day, hours: onset)
        let finalWake = sleepOnset.addingTimeInterval(hours * 3600)
        return SleepScoreHistoryEntry(
            sessionId: UUID(), inBedStart: sleepOnset.addingTimeInterval(-600),
            inBedEnd: finalWake.addingTimeInterval(600),
            sleepOnset: sleepOnset, finalWake: finalWake, totalSleepDuration: hours * 3600 - 600,
            sleepEfficiency: 0.9, timeZoneIdentifier: "GMT", nightWeekday: 3, isFreeDay: free
        )
    }
}

import Foundation
import SleepAnalysis
import XCTest

/// The seed's sleep-score sample, with its calls unchanged (plain `import`, public API only).
final class SleepScoringSeedSampleTests: XCTestCase {
    func test_seedSample_computes_score_from_result_and_history() {
        // Declarations the sample assumes around it: a finished night and the caller's stored values.
        let start = Date(timeIntervalSince1970: 1_796_076_000)  // Monday 2026-11-30 22:00 UTC
        let result = AnalysisResult(
            sessionId: UUID(), startTime: start, endTime: start + 8.5 * 3600, timeZone: TimeZone(identifier: "UTC")!,
            statistics: SleepStatistics(
                totalSleepDuration: 7 * 3600, sleepOnsetLatency: 900, sleepEfficiency: 0.875,
                finalWakeTime: start + 8.25 * 3600,
                sleepStageDurations: [.light: 3.5 * 3600, .deep: 1.5 * 3600, .rem: 2 * 3600, .awake: 5400],
                wakeAfterSleepOnset: 1800
            )
        )
        let recentHistoryEntries: [SleepScoreHistoryEntry] = (1...7).map { back in
            var earlier = result
            earlier.sessionId = UUID()
            earlier.startTime -= Double(back) * 86_400
            earlier.endTime -= Double(back) * 86_400
            earlier.statistics?.finalWakeTime? -= Double(back) * 86_400
            return earlier.toSleepScoreHistoryEntry()
        }
        let userDateOfBirth: Date? = Calendar(identifier: .gregorian).date(byAdding: .year, value: -35, to: start)
        let userChronoType = SleepScoring.identifyChronoType(history: recentHistoryEntries)

        // 从每个已完成的结果构建历史记录条目，并将其持久化以供后续夜晚使用
        let historyEntry = result.toSleepScoreHistoryEntry()

        let score = SleepScoring.compute(
            result: result,
            history: recentHistoryEntries,
            dateOfBirth: userDateOfBirth,  // 可选，按年龄调整质量子评分
            chronoType: userChronoType  // 可选，选择时段子评分的窗口
        )

        // The seed prints this on one line.
        print(
            "Sleep score: \(score.total) (duration=\(score.duration), quality=\(score.quality), "
                + "routine=\(score.routine))"
        )

        // Every night went to sleep at 22:15 and woke at 06:15: mid-sleep 02:15, a morning type.
        XCTAssertEqual(userChronoType, .morning)
        XCTAssertEqual(historyEntry.sleepOnset, start + 900)
        // 7 h asleep: full duration. Quality without a hypnogram (no awakening count): everything full but
        // 30 min WASO (0.75 x 0.10), over weights 0.85: 0.825 / 0.85. Perfectly regular, and mid-sleep 02:15
        // is 30 min from the morning type's 02:45: routine 1.
        XCTAssertEqual(score.duration, 1)
        XCTAssertEqual(score.quality, 0.825 / 0.85, accuracy: 1e-6)
        XCTAssertEqual(score.routine, 1, accuracy: 1e-6)
        XCTAssertEqual(score.total, 0.4 + 0.35 * 0.825 / 0.85 + 0.25, accuracy: 1e-6)
    }
}

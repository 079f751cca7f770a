import Foundation
import XCTest

@testable import SleepAnalysis

final class SleepQualityScoreTests: XCTestCase {
    /// Monday 2026-11-30 22:00 UTC.
    private let bedtime = ScoringFixtures.time(hours: -2)

    func test_nightSummary_derives_figures_from_hypnogram_when_statistics_missing() {
        let night = NightSummary(ScoringFixtures.result(start: bedtime, runs: ScoringFixtures.qualityRuns))
        XCTAssertEqual(night.onsetLatency, 45 * 60)
        XCTAssertEqual(night.totalSleep, 7.5 * 3600)
        XCTAssertEqual(night.efficiency, 0.8, accuracy: 1e-12)
        XCTAssertEqual(night.wakeAfterSleepOnset, 30 * 60)
        XCTAssertEqual(night.longAwakenings, 2)
        XCTAssertEqual(night.stageDurations?[.deep], 108 * 30)
        XCTAssertEqual(night.stageDurations?[.rem], 135 * 30)
        XCTAssertEqual(night.sleepOnset, bedtime + 45 * 60)
        XCTAssertEqual(night.finalWake, bedtime + (1125 - 75) * 30)
        XCTAssertTrue(night.hasStaging)
    }

    func test_qualityScore_matches_hand_computation_without_age() {
        // efficiency 0.80 -> 0.75 (x0.30), latency 45 min -> 0.5 (x0.15), 2 awakenings -> 2/3 (x0.15),
        // WASO 30 min -> 0.75 (x0.10), deep 12 % of target 15 % -> 0.8 (x0.15), REM 15 % of 20 % -> 0.75 (x0.15)
        // = 0.225 + 0.075 + 0.1 + 0.075 + 0.12 + 0.1125 = 0.7075
        let result = ScoringFixtures.result(start: bedtime, runs: ScoringFixtures.qualityRuns)
        XCTAssertEqual(SleepScoring.compute(result: result).quality, 0.7075, accuracy: 1e-6)
    }

    func test_qualityScore_is_the_same_from_epoch_predictions() {
        let result = ScoringFixtures.result(start: bedtime, runs: ScoringFixtures.qualityRuns, asPredictions: true)
        XCTAssertTrue(result.sleepStageIntervals.isEmpty)
        XCTAssertEqual(SleepScoring.compute(result: result).quality, 0.7075, accuracy: 1e-6)
    }

    func test_qualityScore_deep_target_follows_age() {
        // deep target 20 % at 20 years (12 % -> 0.6, quality 0.6775), 10 % at 80 years (-> 1, quality 0.7375)
        let result = ScoringFixtures.result(start: bedtime, runs: ScoringFixtures.qualityRuns)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = ScoringFixtures.utc
        let twenty = calendar.date(byAdding: .year, value: -20, to: bedtime)!
        let eighty = calendar.date(byAdding: .year, value: -80, to: bedtime)!
        XCTAssertEqual(SleepScoring.compute(result: result, dateOfBirth: twenty).quality, 0.6775, accuracy: 1e-6)
        XCTAssertEqual(SleepScoring.compute(result: result, dateOfBirth: eighty).quality, 0.7375, accuracy: 1e-6)
        XCTAssertEqual(SleepQualityScore.deepSleepTarget(ageMonths: 600), 0.15, accuracy: 1e-12)
    }

    func test_qualityScore_prefers_statistics_over_hypnogram() {
        // statistics say efficiency 0.95 and latency 10 min: those two measures score 1 instead
        var result = ScoringFixtures.result(start: bedtime, runs: ScoringFixtures.qualityRuns)
        result.statistics = SleepStatistics(
            totalSleepDuration: 7.5 * 3600, sleepOnsetLatency: 600, sleepEfficiency: 0.95)
        // 0.30 + 0.15 + 0.1 + 0.075 + 0.12 + 0.1125
        XCTAssertEqual(SleepScoring.compute(result: result).quality, 0.8575, accuracy: 1e-6)
    }

    func test_qualityScore_is_one_for_a_textbook_night() {
        let runs: [(SleepStage, Int)] = [(.awake, 20), (.light, 400), (.deep, 200), (.rem, 200), (.awake, 4)]
        XCTAssertEqual(SleepScoring.compute(result: ScoringFixtures.result(start: bedtime, runs: runs)).quality, 1)
    }

    func test_qualityScore_is_neutral_without_any_staging() {
        let result = AnalysisResult(
            sessionId: UUID(), startTime: bedtime, endTime: bedtime + 8 * 3600, timeZone: ScoringFixtures.utc
        )
        XCTAssertEqual(SleepScoring.compute(result: result).quality, 0.5)
    }
}

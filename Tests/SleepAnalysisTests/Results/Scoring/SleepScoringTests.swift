import Foundation
import XCTest

@testable import SleepAnalysis

final class SleepScoringTests: XCTestCase {
    private let bedtime = ScoringFixtures.time(hours: -2)

    func test_totalScore_is_weighted_sum_of_parts() {
        // the quality night: 7.5 h asleep -> duration 1; quality 0.7075; asleep 22:45-06:45, mid-sleep 02:45 is
        // 90 min from 04:15 -> routine (180 - 90) / 120 = 0.75; total 0.4 + 0.247625 + 0.1875 = 0.835125
        let result = ScoringFixtures.result(start: bedtime, runs: ScoringFixtures.qualityRuns)
        let score = SleepScoring.compute(result: result, history: [], dateOfBirth: nil, chronoType: nil)
        XCTAssertEqual(score.duration, 1)
        XCTAssertEqual(score.routine, 0.75, accuracy: 1e-6)
        XCTAssertEqual(score.total, 0.835_125, accuracy: 1e-6)
        XCTAssertEqual(score.total, 0.4 * score.duration + 0.35 * score.quality + 0.25 * score.routine, accuracy: 1e-6)
    }

    func test_scores_stay_in_unit_range_for_degenerate_results() {
        let empty = AnalysisResult(
            sessionId: UUID(), startTime: bedtime, endTime: bedtime, timeZone: ScoringFixtures.utc)
        let backwards = AnalysisResult(
            sessionId: UUID(), startTime: bedtime, endTime: bedtime - 3600, timeZone: ScoringFixtures.utc
        )
        var nonsense = AnalysisResult(
            sessionId: UUID(), startTime: bedtime, endTime: bedtime + 3600, timeZone: ScoringFixtures.utc
        )
        nonsense.statistics = SleepStatistics(
            totalSleepDuration: -5, sleepOnsetLatency: -60, sleepEfficiency: 3, wakeAfterSleepOnset: .nan
        )
        let allAwake = ScoringFixtures.result(start: bedtime, runs: [(.awake, 900)])
        for result in [empty, backwards, nonsense, allAwake] {
            let score = SleepScoring.compute(result: result)
            for part in [score.total, score.duration, score.quality, score.routine] {
                XCTAssertTrue((0...1).contains(part), "\(score)")
            }
        }
        XCTAssertEqual(SleepScoring.compute(result: allAwake).duration, 0)
    }

    func test_historyEntry_falls_back_to_session_times_without_statistics() {
        let result = AnalysisResult(
            sessionId: UUID(), startTime: bedtime, endTime: bedtime + 8 * 3600, timeZone: ScoringFixtures.utc
        )
        let entry = result.toSleepScoreHistoryEntry()
        XCTAssertEqual(entry.sessionId, result.sessionId)
        XCTAssertEqual(entry.inBedStart, bedtime)
        XCTAssertEqual(entry.inBedEnd, bedtime + 8 * 3600)
        XCTAssertEqual(entry.sleepOnset, bedtime)
        XCTAssertEqual(entry.finalWake, bedtime + 8 * 3600)
        XCTAssertEqual(entry.totalSleepDuration, 8 * 3600)
        XCTAssertEqual(entry.sleepEfficiency, 1)
        XCTAssertFalse(entry.isMeasured)
        XCTAssertEqual(entry.nightWeekday, 2)  // Monday night
        XCTAssertFalse(entry.isFreeDay)
    }

    func test_historyEntry_uses_staging_and_round_trips_through_Codable() throws {
        let result = ScoringFixtures.result(start: bedtime, runs: ScoringFixtures.qualityRuns)
        let entry = result.toSleepScoreHistoryEntry()
        XCTAssertEqual(entry.sleepOnset, bedtime + 45 * 60)
        XCTAssertEqual(entry.totalSleepDuration, 7.5 * 3600)
        XCTAssertEqual(entry.sleepEfficiency, 0.8, accuracy: 1e-12)
        XCTAssertTrue(entry.isMeasured)
        let decoded = try JSONDecoder().decode(SleepScoreHistoryEntry.self, from: JSONEncoder().encode(entry))
        XCTAssertEqual(decoded, entry)
        let keys = try JSONSerialization.jsonObject(with: JSONEncoder().encode(entry)) as? [String: Any]
        XCTAssertEqual(
            Set(keys?.keys.map { $0 } ?? []),
            [
                "sessionId", "inBedStart", "inBedEnd", "sleepOnset", "finalWake", "totalSleepDuration",
                "sleepEfficiency", "timeZoneIdentifier", "nightWeekday", "isFreeDay", "isMeasured",
            ]
        )
    }

    func test_historyEntry_marks_friday_and_saturday_nights_free_by_default() {
        // Saturday 00:30 is still Friday night; Sunday 22:00 is a work night
        let fridayNight = AnalysisResult(
            sessionId: UUID(), startTime: ScoringFixtures.time(day: 4, hours: 0.5),
            endTime: ScoringFixtures.time(day: 4, hours: 8),
            timeZone: ScoringFixtures.utc
        )
        let sundayNight = AnalysisResult(
            sessionId: UUID(), startTime: ScoringFixtures.time(day: 5, hours: 22),
            endTime: ScoringFixtures.time(day: 6, hours: 6),
            timeZone: ScoringFixtures.utc
        )
        XCTAssertEqual(fridayNight.toSleepScoreHistoryEntry().nightWeekday, 6)
        XCTAssertTrue(fridayNight.toSleepScoreHistoryEntry().isFreeDay)
        XCTAssertEqual(sundayNight.toSleepScoreHistoryEntry().nightWeekday, 1)
        XCTAssertFalse(sundayNight.toSleepScoreHistoryEntry().isFreeDay)
        XCTAssertTrue(sundayNight.toSleepScoreHistoryEntry(freeNights: [1, 7]).isFreeDay)
    }

    func test_sleepScore_round_trips_through_Codable() throws {
        let score = SleepScore(total: 0.8, duration: 0.9, quality: 0.7, routine: 0.75)
        XCTAssertEqual(try JSONDecoder().decode(SleepScore.self, from: JSONEncoder().encode(score)), score)
    }
}

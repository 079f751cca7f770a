import Foundation
import XCTest

@testable import SleepAnalysis

/// A recording that is not a night (under 3 hours in bed, no sleep, not staged) gets no score, with a reason.
final class ScoreAvailabilityTests: XCTestCase {
    private let bedtime = ScoringFixtures.time(day: -1, hours: 23)

    private func result(inBedHours: Double, asleepHours: Double) -> AnalysisResult {
        var result = AnalysisResult(
            sessionId: UUID(), startTime: bedtime, endTime: bedtime + inBedHours * 3600,
            timeZone: ScoringFixtures.utc)
        result.statistics = SleepStatistics(
            totalSleepDuration: asleepHours * 3600, sleepOnsetLatency: 600,
            sleepEfficiency: asleepHours / inBedHours, timeInBed: inBedHours * 3600)
        return result
    }

    private func json(_ result: AnalysisResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(result), as: UTF8.self)
    }

    func test_a_30_minute_recording_has_no_score_because_it_is_short() throws {
        let short = result(inBedHours: 0.5, asleepHours: 0.4)
        XCTAssertEqual(short.scoreUnavailableReason, .shortRecording)
        XCTAssertNil(SleepScoring.score(result: short))
        XCTAssertTrue(try json(short).contains(#""scoreUnavailableReason":"shortRecording""#))
        XCTAssertTrue(SleepScoreUnavailableReason.shortRecording.message.contains("short"))
    }

    func test_just_under_three_hours_is_short_and_three_hours_is_a_night() {
        XCTAssertEqual(result(inBedHours: 2.99, asleepHours: 2.5).scoreUnavailableReason, .shortRecording)
        let night = result(inBedHours: 3, asleepHours: 2.5)
        XCTAssertNil(night.scoreUnavailableReason)
        XCTAssertEqual(SleepScoring.score(result: night), SleepScoring.compute(result: night))
    }

    func test_a_night_without_sleep_has_no_score() throws {
        let sleepless = result(inBedHours: 8, asleepHours: 0)
        XCTAssertEqual(sleepless.scoreUnavailableReason, .noSleepFound)
        XCTAssertNil(SleepScoring.score(result: sleepless))
        XCTAssertTrue(try json(sleepless).contains(#""scoreUnavailableReason":"noSleepFound""#))
    }

    func test_an_unstaged_result_has_no_score_and_a_scored_night_encodes_no_reason() throws {
        let unstaged = AnalysisResult(sessionId: UUID(), startTime: bedtime, endTime: bedtime + 8 * 3600)
        XCTAssertEqual(unstaged.scoreUnavailableReason, .notStaged)
        XCTAssertNil(SleepScoring.score(result: unstaged))
        let night = result(inBedHours: 8, asleepHours: 7)
        XCTAssertNotNil(SleepScoring.score(result: night))
        XCTAssertFalse(try json(night).contains("scoreUnavailableReason"))
    }

    func test_the_reason_is_derived_so_a_decoded_result_gives_it_again() throws {
        let short = result(inBedHours: 1, asleepHours: 0.5)
        let decoded = try JSONDecoder().decode(AnalysisResult.self, from: try JSONEncoder().encode(short))
        XCTAssertEqual(decoded.scoreUnavailableReason, .shortRecording)
    }
}

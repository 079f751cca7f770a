import Foundation
import XCTest

@testable import SleepAnalysis

final class SleepDurationScoreTests: XCTestCase {
    func test_durationScore_is_one_inside_recommended_adult_range() {
        for hours in [7.0, 8.0, 9.0] {
            XCTAssertEqual(SleepNeed.adult.score(hours: hours), 1, "\(hours) h")
        }
    }

    func test_durationScore_falls_to_half_at_edge_of_acceptable_range_then_to_zero() {
        // adult: recommended 7-9 h, may be appropriate 6-10 h, then 2 h to zero
        let cases: [(hours: Double, score: Double)] = [
            (6.5, 0.75), (6.0, 0.5), (5.0, 0.25), (4.0, 0), (2.0, 0), (9.5, 0.75), (10.0, 0.5), (10.5, 0.375),
            (12.0, 0),
        ]
        for (hours, expected) in cases {
            XCTAssertEqual(SleepNeed.adult.score(hours: hours), expected, accuracy: 1e-12, "\(hours) h")
        }
    }

    func test_sleepNeed_follows_nsf_ranges_by_age() {
        XCTAssertEqual(SleepNeed.forAge(months: 2), SleepNeed(recommended: 14...17, acceptable: 11...19))
        XCTAssertEqual(SleepNeed.forAge(months: 6), SleepNeed(recommended: 12...15, acceptable: 10...18))
        XCTAssertEqual(SleepNeed.forAge(months: 12 * 2 + 11), SleepNeed(recommended: 11...14, acceptable: 9...16))
        XCTAssertEqual(SleepNeed.forAge(months: 12 * 4), SleepNeed(recommended: 10...13, acceptable: 8...14))
        XCTAssertEqual(SleepNeed.forAge(months: 12 * 13), SleepNeed(recommended: 9...11, acceptable: 7...12))
        XCTAssertEqual(SleepNeed.forAge(months: 12 * 15), SleepNeed(recommended: 8...10, acceptable: 7...11))
        XCTAssertEqual(SleepNeed.forAge(months: 12 * 25 + 11), SleepNeed(recommended: 7...9, acceptable: 6...11))
        XCTAssertEqual(SleepNeed.forAge(months: 12 * 26), SleepNeed.adult)
        XCTAssertEqual(SleepNeed.forAge(months: 12 * 65), SleepNeed(recommended: 7...8, acceptable: 5...9))
    }

    func test_durationScore_uses_age_from_date_of_birth() {
        // 8.5 h: full marks for an adult, 0.75 for a 70-year-old (7-8 h, 5-9 h), 0.75 for a 15-year-old at 7.5 h
        let inBed = ScoringFixtures.time(hours: -1)
        let night = ScoringFixtures.result(
            inBed: inBed, outOfBed: inBed + 9 * 3600, latencyMinutes: 10, finalWake: inBed + 8.7 * 3600,
            asleepHours: 8.5
        )
        let seventy = ScoringFixtures.time(day: -70 * 366, hours: 0)
        XCTAssertEqual(SleepScoring.compute(result: night).duration, 1)
        XCTAssertEqual(SleepScoring.compute(result: night, dateOfBirth: seventy).duration, 0.75, accuracy: 1e-6)
        let teenNight = ScoringFixtures.result(
            inBed: inBed, outOfBed: inBed + 8 * 3600, latencyMinutes: 10, finalWake: inBed + 7.8 * 3600,
            asleepHours: 7.5
        )
        let fifteen = ScoringFixtures.time(day: -15 * 366, hours: 0)
        XCTAssertEqual(SleepScoring.compute(result: teenNight, dateOfBirth: fifteen).duration, 0.75, accuracy: 1e-6)
        XCTAssertEqual(SleepScoring.compute(result: teenNight).duration, 1)
    }

    func test_sleeperAge_is_nil_for_future_birth_and_counts_whole_months() {
        let night = ScoringFixtures.tuesday
        XCTAssertNil(SleeperAge.months(dateOfBirth: night + 1, at: night, in: ScoringFixtures.utc))
        XCTAssertNil(SleeperAge.months(dateOfBirth: nil, at: night, in: ScoringFixtures.utc))
        let birth = ScoringFixtures.time(day: -61, hours: 0)  // 2026-10-01
        XCTAssertEqual(SleeperAge.months(dateOfBirth: birth, at: night, in: ScoringFixtures.utc), 2)
    }
}

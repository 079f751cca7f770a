import Foundation
import XCTest

@testable import SleepAnalysis

final class SleepRoutineScoreTests: XCTestCase {
    /// Tonight (a Monday, work night): in bed 23:30, asleep 23:45, final wake 07:00, up 07:10.
    private let tonight = ScoringFixtures.result(
        inBed: ScoringFixtures.time(hours: -0.5), outOfBed: ScoringFixtures.time(hours: 7 + 1.0 / 6),
        latencyMinutes: 15, finalWake: ScoringFixtures.time(hours: 7), asleepHours: 7
    )

    /// Five work nights asleep 23:00-07:00 before tonight.
    private var workWeek: [SleepScoreHistoryEntry] {
        (1...5).map { ScoringFixtures.entry(day: -$0, onset: -1, hours: 8, free: false) }
    }

    func test_routineScore_is_timing_alone_without_history() {
        // mid-sleep 03:22:30 is 52.5 min from the intermediate 04:15: within the hour, full marks
        XCTAssertEqual(SleepScoring.compute(result: tonight).routine, 1)
    }

    func test_routineScore_matches_hand_computation_against_history() {
        // onset 45 min after the usual 23:00 -> (120 - 45) / 90 = 0.8333; wake on time -> 1;
        // regularity 0.91667; timing 1; routine = 0.6 * 0.91667 + 0.4 * 1 = 0.95
        XCTAssertEqual(SleepScoring.compute(result: tonight, history: workWeek).routine, 0.95, accuracy: 1e-5)
    }

    func test_routineScore_timing_follows_chronotype() {
        // extreme evening type: natural mid-sleep 07:15, tonight's 03:22:30 is 3 h 52.5 min off -> timing 0
        let score = SleepScoring.compute(result: tonight, history: workWeek, chronoType: .extremeEvening)
        XCTAssertEqual(score.routine, 0.55, accuracy: 1e-5)
        // evening type: 05:45, 2 h 22.5 min off -> (180 - 142.5) / 120 = 0.3125
        let evening = SleepScoring.compute(result: tonight, history: workWeek, chronoType: .evening)
        XCTAssertEqual(evening.routine, 0.6 * 0.916_667 + 0.4 * 0.3125, accuracy: 1e-5)
    }

    func test_routineScore_compares_work_nights_with_work_nights() {
        // free nights asleep 01:00-09:00 do not move the reference of a work night
        let weekend = [
            ScoringFixtures.entry(day: -2, onset: 1, hours: 8, free: true),
            ScoringFixtures.entry(day: -3, onset: 1, hours: 8, free: true),
        ]
        let score = SleepScoring.compute(result: tonight, history: workWeek + weekend)
        XCTAssertEqual(score.routine, 0.95, accuracy: 1e-5)
    }

    func test_routineScore_ignores_old_future_and_own_entries() {
        let old = (30...40).map { ScoringFixtures.entry(day: -$0, onset: 3, hours: 8, free: false) }
        let future = [ScoringFixtures.entry(day: 1, onset: 3, hours: 8, free: false)]
        var own = tonight.toSleepScoreHistoryEntry()
        own.sleepOnset = ScoringFixtures.time(hours: 4)
        let score = SleepScoring.compute(result: tonight, history: workWeek + old + future + [own])
        XCTAssertEqual(score.routine, 0.95, accuracy: 1e-5)
    }

    func test_routineScore_handles_history_across_midnight_and_time_zones() {
        // onsets at 23:30 and 00:30 average to 00:00 (not noon); tonight 23:45 is 15 min off -> 1; wake 07:00
        // on time -> routine 1. Entries written in Tokyo time at the same UTC instants score the same.
        let history = [
            ScoringFixtures.entry(day: -1, onset: -0.5, hours: 7.5, free: false),
            ScoringFixtures.entry(day: -2, onset: 0.5, hours: 6.5, free: false),
        ]
        XCTAssertEqual(SleepScoring.compute(result: tonight, history: history).routine, 1, accuracy: 1e-6)
        var tokyo = tonight
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        let tokyoHistory = history.map { entry -> SleepScoreHistoryEntry in
            var copy = entry
            copy.timeZoneIdentifier = "Asia/Tokyo"
            return copy
        }
        // Regularity is unchanged; only timing moves (mid-sleep 12:22 Tokyo is far from 04:15).
        let score = SleepScoring.compute(result: tokyo, history: tokyoHistory)
        XCTAssertEqual(score.routine, 0.6, accuracy: 1e-6)
    }

    func test_localClock_circular_mean_and_distance_wrap_at_midnight() {
        XCTAssertEqual(LocalClock.circularMean([23.5, 24.5])!, 24, accuracy: 1e-9)
        XCTAssertEqual(LocalClock.circularMean([23.5, 0.5])!, 24, accuracy: 1e-9)
        XCTAssertNil(LocalClock.circularMean([]))
        XCTAssertNil(LocalClock.circularMean([0, 12]))
        XCTAssertEqual(LocalClock.distance(23.5, 24.5), 1, accuracy: 1e-12)
        XCTAssertEqual(LocalClock.distance(1, 23), 2, accuracy: 1e-12)
        XCTAssertEqual(LocalClock.hoursAfterNoon(ScoringFixtures.time(hours: 1.5), in: ScoringFixtures.utc), 25.5)
        XCTAssertEqual(LocalClock.hoursAfterNoon(ScoringFixtures.time(hours: -1), in: ScoringFixtures.utc), 23)
    }
}

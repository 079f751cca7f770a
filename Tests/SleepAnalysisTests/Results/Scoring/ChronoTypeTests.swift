import Foundation
import XCTest

@testable import SleepAnalysis

final class ChronoTypeTests: XCTestCase {
    /// Two weeks: work nights (Sunday to Thursday) and free nights (Friday, Saturday) with given onsets and
    /// durations; night `k` starts `k` days before Tuesday 2026-12-01 (day -1 is Monday night).
    private func twoWeeks(
        workOnset: Double, workHours: Double, freeOnset: Double, freeHours: Double
    )
        -> [SleepScoreHistoryEntry]
    {
        (1...14).map { back -> SleepScoreHistoryEntry in
            // night of day d: weekday of (Tuesday - back days); Friday nights are back = 4, 11; Saturday 3, 10
            let free = [3, 4, 10, 11].contains(back)
            let onset = free ? freeOnset : workOnset
            // the night before day 1 - back: onsets before midnight are negative hours of that day
            return ScoringFixtures.entry(day: 1 - back, onset: onset, hours: free ? freeHours : workHours, free: free)
        }
    }

    func test_chronotype_is_extremeMorning_for_early_sleepers() {
        // free nights 21:30-05:30: MSF 01:30, no debt
        let history = twoWeeks(workOnset: -2.5, workHours: 8, freeOnset: -2.5, freeHours: 8)
        XCTAssertEqual(ChronoTypeEstimator.correctedMidSleepOnFreeDays(history)!, 25.5, accuracy: 1e-6)
        XCTAssertEqual(SleepScoring.identifyChronoType(history: history), .extremeMorning)
    }

    func test_chronotype_corrects_free_day_oversleep_for_sleep_debt() {
        // work 23:30-06:30 (7 h), free 00:30-09:30 (9 h): MSF 05:00 (evening uncorrected);
        // SD_week = (5*7 + 2*9)/7 = 7.5714; MSFsc = 5:00 - (9 - 7.5714)/2 h = 04:17 -> intermediate
        let history = twoWeeks(workOnset: -0.5, workHours: 7, freeOnset: 0.5, freeHours: 9)
        XCTAssertEqual(
            ChronoTypeEstimator.correctedMidSleepOnFreeDays(history)!, 29 - (9 - 53.0 / 7) / 2, accuracy: 1e-6)
        XCTAssertEqual(SleepScoring.identifyChronoType(history: history), .intermediate)
    }

    func test_chronotype_is_extremeEvening_for_late_sleepers() {
        // work 01:00-08:00, free 03:00-11:00: MSF 07:00, MSFsc 07:00 - (8 - 51/7)/2 h = 06:38.6
        let history = twoWeeks(workOnset: 1, workHours: 7, freeOnset: 3, freeHours: 8)
        XCTAssertEqual(
            ChronoTypeEstimator.correctedMidSleepOnFreeDays(history)!, 31 - (8 - 51.0 / 7) / 2, accuracy: 1e-6)
        XCTAssertEqual(SleepScoring.identifyChronoType(history: history), .extremeEvening)
    }

    func test_chronotype_ignores_free_day_shortfall() {
        // free nights shorter than work nights: no correction, MSFsc = MSF = 00:00 + 3 h = 03:00 -> morning
        let history = twoWeeks(workOnset: -1, workHours: 8, freeOnset: 0, freeHours: 6)
        XCTAssertEqual(ChronoTypeEstimator.correctedMidSleepOnFreeDays(history)!, 27, accuracy: 1e-6)
        XCTAssertEqual(SleepScoring.identifyChronoType(history: history), .morning)
    }

    func test_chronotype_is_nil_with_too_little_history() {
        let history = twoWeeks(workOnset: -1, workHours: 8, freeOnset: 0, freeHours: 9)
        // the 6 most recent nights (back 1...6) hold 2 free nights but are fewer than 7
        XCTAssertNil(SleepScoring.identifyChronoType(history: Array(history.prefix(6))))
        XCTAssertNil(SleepScoring.identifyChronoType(history: []))
        // 7 nights is enough when two are free
        XCTAssertNotNil(SleepScoring.identifyChronoType(history: Array(history.prefix(7))))
        // 10 work nights and a single free night is not
        let oneFree = history.filter { !$0.isFreeDay } + [history.first { $0.isFreeDay }!]
        XCTAssertNil(SleepScoring.identifyChronoType(history: oneFree))
    }

    func test_chronotype_bands_cover_the_clock() {
        let cases: [(Double, ChronoType)] = [
            (23, .extremeMorning), (25.99, .extremeMorning), (26, .morning), (27.49, .morning),
            (27.5, .intermediate), (28.99, .intermediate), (29, .evening), (30.49, .evening), (30.5, .extremeEvening),
            (35, .extremeEvening),
        ]
        for (hours, type) in cases {
            XCTAssertEqual(ChronoType(midSleepHoursAfterNoon: hours), type, "\(hours)")
            XCTAssertEqual(ChronoType(midSleepHoursAfterNoon: type.idealMidSleepHoursAfterNoon), type)
        }
    }
}

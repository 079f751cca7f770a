import Foundation
import SleepAnalysis
import XCTest

final class SleepStatisticsCalculatorTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func hypnogram(_ letters: String) -> [SleepStagePrediction] {
        letters.enumerated().map { index, letter in
            let stage: SleepStage =
                switch letter {
                case "W": .awake
                case "L": .light
                case "D": .deep
                default: .rem
                }
            return SleepStagePrediction(
                stage: stage, interval: DateInterval(start: start.addingTimeInterval(Double(index) * 30), duration: 30),
                probabilities: SleepStageProbabilities(awake: 0.25, rem: 0.25, light: 0.25, deep: 0.25))
        }
    }

    private func snore(_ from: Double, _ to: Double, type: EventType = .snoring) -> Event {
        Event(
            type: type,
            interval: DateInterval(start: start.addingTimeInterval(from), end: start.addingTimeInterval(to)),
            probability: 0.9, source: .audio, sessionId: UUID())
    }

    func test_statistics_match_hand_count_for_fragmented_night() {
        // Given: W W L W L L D W W R L W W (13 epochs, 390 s). The lone L at index 2 is not onset (3 needed);
        // onset at index 4 (120 s); last sleep epoch index 10 ends at 330 s; sleep period 4...10 = L L D W W R L.
        let predictions = hypnogram("WWLWLLDWWRLWW")
        let events = [
            snore(100, 110), snore(105, 120), snore(300, 310), snore(500, 505), snore(200, 260, type: .talking),
        ]

        // When
        let stats = SleepStatisticsCalculator().statistics(predictions: predictions, events: events)

        // Then
        XCTAssertEqual(stats.timeInBed, 390)
        XCTAssertEqual(stats.sleepOnsetLatency, 120)
        XCTAssertEqual(stats.finalWakeTime, start.addingTimeInterval(330))
        XCTAssertEqual(stats.totalSleepDuration, 150)  // L L D R L
        XCTAssertEqual(stats.wakeAfterSleepOnset, 60)  // W W
        XCTAssertEqual(stats.numberOfAwakenings, 1)
        XCTAssertEqual(stats.sleepEfficiency!, 150.0 / 390.0, accuracy: 1e-12)
        XCTAssertEqual(stats.sleepStageDurations, [.awake: 210, .light: 120, .deep: 30, .rem: 30])
        // Snoring: 100–120 (overlap counted once), 300–310, 500–505: gaps 180 s and 190 s exceed 120 s.
        XCTAssertEqual(stats.snoreTime, 35)
        XCTAssertEqual(stats.snoreCount, 4)
        XCTAssertEqual(stats.snoreSessions?.count, 3)
        XCTAssertEqual(stats.snoreSessions?.first?.interval.duration, 20)
        XCTAssertEqual(stats.snoreSessions?.first?.eventCount, 2)
    }

    func test_statistics_count_awakenings_by_minimum_run_length() {
        // Given: L L L W L W W L W W W L W: wake runs inside the period (0...11) are 1, 2 and 3 epochs long.
        let predictions = hypnogram("LLLWLWWLWWWLW")

        // When
        let one = SleepStatisticsCalculator(minimumAwakeningEpochs: 1).statistics(predictions: predictions)
        let two = SleepStatisticsCalculator(minimumAwakeningEpochs: 2).statistics(predictions: predictions)

        // Then
        XCTAssertEqual(one.numberOfAwakenings, 3)
        XCTAssertEqual(two.numberOfAwakenings, 2)
        XCTAssertEqual(one.sleepOnsetLatency, 0)
        XCTAssertEqual(one.wakeAfterSleepOnset, 180)
        XCTAssertEqual(one.totalSleepDuration, 180)
        XCTAssertEqual(one.finalWakeTime, start.addingTimeInterval(360))
    }

    func test_statistics_use_session_span_for_time_in_bed() {
        // Given: the session began 10 minutes before the first epoch and ended 5 minutes after the last.
        let predictions = hypnogram("WLLLW")
        let session = DateInterval(start: start.addingTimeInterval(-600), end: start.addingTimeInterval(450))

        // When
        let stats = SleepStatisticsCalculator().statistics(predictions: predictions, session: session)

        // Then: latency counts from the session start; efficiency divides by the whole session.
        XCTAssertEqual(stats.timeInBed, 1050)
        XCTAssertEqual(stats.sleepOnsetLatency, 630)
        XCTAssertEqual(stats.sleepEfficiency!, 90.0 / 1050.0, accuracy: 1e-12)
    }

    func test_statistics_leave_onset_undefined_when_never_asleep() {
        // Given: two isolated sleep epochs, never three in a row.
        let stats = SleepStatisticsCalculator().statistics(predictions: hypnogram("WLWWRW"))

        // Then
        XCTAssertNil(stats.sleepOnsetLatency)
        XCTAssertNil(stats.finalWakeTime)
        XCTAssertNil(stats.numberOfAwakenings)
        XCTAssertEqual(stats.totalSleepDuration, 0)
        XCTAssertEqual(stats.sleepEfficiency, 0)
        XCTAssertEqual(stats.snoreTime, 0)
        XCTAssertEqual(stats.snoreSessions, [])
    }

    func test_statistics_take_given_snore_sessions() {
        // Given: sessions from another engine and no events.
        let sessions = [
            SnoreSession(interval: DateInterval(start: start, duration: 300), eventCount: 7, snoreDuration: 80),
            SnoreSession(
                interval: DateInterval(start: start.addingTimeInterval(900), duration: 60), eventCount: 2,
                snoreDuration: 15),
        ]

        // When
        let stats = SleepStatisticsCalculator().statistics(predictions: hypnogram("LLL"), snoreSessions: sessions)

        // Then
        XCTAssertEqual(stats.snoreTime, 95)
        XCTAssertEqual(stats.snoreCount, 9)
        XCTAssertEqual(stats.snoreSessions, sessions)
    }

    func test_intervals_merge_touching_epochs_of_one_stage_and_split_at_gaps() {
        // Given: L L D D L, then a gap of one epoch, then L.
        var predictions = hypnogram("LLDDL")
        let late = hypnogram("WWWWWWL").last!
        predictions.append(late)

        // When
        let runs = SleepStageIntervals.from(predictions.shuffled())

        // Then
        XCTAssertEqual(runs.map(\.stage), [.light, .deep, .light, .light])
        XCTAssertEqual(runs.map(\.interval.duration), [60, 60, 30, 30])
        XCTAssertEqual(runs[3].interval.start, start.addingTimeInterval(180))
    }
}

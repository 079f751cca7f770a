import XCTest

@testable import SleepAnalysis

/// Hysteresis, minimum duration and gap merging on synthetic probability sequences (windows every 0.5 s).
final class EventHysteresisTests: XCTestCase {
    /// Feeds probabilities at 0.5-s steps (each window spans its 0.5 s) and collects started/ended spans.
    private func run(
        _ probabilities: [Float], minDuration: Double = 0.5, mergeGap: Double = 1.0
    )
        -> (started: [EventHysteresis.Span], ended: [EventHysteresis.Span])
    {
        var tracker = EventHysteresis(
            onThreshold: 0.5, offThreshold: 0.3, minDuration: minDuration,
            mergeGap: mergeGap)
        var started: [EventHysteresis.Span] = []
        var ended: [EventHysteresis.Span] = []
        for (index, probability) in probabilities.enumerated() {
            let step = tracker.step(
                probability: probability, start: Double(index) * 0.5,
                end: Double(index + 1) * 0.5)
            if let span = step.started { started.append(span) }
            if let span = step.ended { ended.append(span) }
        }
        if let span = tracker.finish() { ended.append(span) }
        return (started, ended)
    }

    func test_hysteresis_opensOnOnThreshold_andKeepsOpenAboveOffThreshold() {
        // Given a rise above 0.5 at window 2, then values between 0.3 and 0.5, then silence.
        let result = run([0.1, 0.4, 0.6, 0.4, 0.35, 0.1, 0.1, 0.1, 0.1])
        // Then one event from window 2 to the end of window 4.
        XCTAssertEqual(result.ended.count, 1)
        XCTAssertEqual(result.ended.first?.start ?? -1, 1.0, accuracy: 1e-9)
        XCTAssertEqual(result.ended.first?.end ?? -1, 2.5, accuracy: 1e-9)
        XCTAssertEqual(result.ended.first?.peakProbability ?? 0, 0.6, accuracy: 1e-6)
        XCTAssertEqual(result.started.count, 1)
    }

    func test_hysteresis_neverOpens_belowOnThreshold() {
        let result = run([0.45, 0.49, 0.4, 0.45, 0.3])
        XCTAssertTrue(result.ended.isEmpty)
        XCTAssertTrue(result.started.isEmpty)
    }

    func test_hysteresis_dropsEvents_shorterThanMinimumDuration() {
        // One window (0.5 s) with a 1.2-s minimum: nothing is announced or reported.
        let result = run([0.1, 0.9, 0.1, 0.1, 0.1, 0.1], minDuration: 1.2)
        XCTAssertTrue(result.ended.isEmpty)
        XCTAssertTrue(result.started.isEmpty)
        // Three windows (1.5 s) pass the same minimum, announced once it is reached.
        let long = run([0.1, 0.9, 0.8, 0.7, 0.1, 0.1, 0.1], minDuration: 1.2)
        XCTAssertEqual(long.ended.count, 1)
        XCTAssertEqual(long.started.count, 1)
        XCTAssertEqual(long.started.first?.start ?? -1, 0.5, accuracy: 1e-9)
    }

    func test_hysteresis_mergesShortGaps_andSplitsLongOnes() {
        // A 0.5-s dip (shorter than the 1-s merge gap) joins two bursts into one event.
        let merged = run([0.9, 0.9, 0.1, 0.9, 0.9, 0.1, 0.1, 0.1, 0.1])
        XCTAssertEqual(merged.ended.count, 1)
        XCTAssertEqual(merged.ended.first?.end ?? -1, 2.5, accuracy: 1e-9)
        // A 1.5-s pause splits them.
        let split = run([0.9, 0.9, 0.1, 0.1, 0.1, 0.9, 0.9, 0.1, 0.1, 0.1])
        XCTAssertEqual(split.ended.count, 2)
        XCTAssertEqual(split.started.count, 2)
    }

    func test_hysteresis_closesOpenEvent_atEndOfStream() {
        let result = run([0.1, 0.9, 0.9])
        XCTAssertEqual(result.ended.count, 1)
        XCTAssertEqual(result.ended.first?.end ?? -1, 1.5, accuracy: 1e-9)
    }
}

import SleepAnalysis
import SleepAnalysisEvaluation
import XCTest

final class FirstDeepSleepLatencyTests: XCTestCase {
    func test_latency_counts_from_the_first_sleep_epoch_of_any_stage() {
        let stages: [SleepStage?] = [nil, .awake, .awake, .light, .light, .rem, .awake, .deep, .deep]
        XCTAssertEqual(firstDeepSleepMinutesAfterOnset(stages), 2)
    }

    func test_unscored_epochs_before_onset_are_not_sleep() {
        let stages: [SleepStage?] = [nil, nil, .deep]
        XCTAssertEqual(firstDeepSleepMinutesAfterOnset(stages), 0)
    }

    func test_no_sleep_or_no_deep_sleep_has_no_latency() {
        XCTAssertNil(firstDeepSleepMinutesAfterOnset([.awake, nil, .awake]))
        XCTAssertNil(firstDeepSleepMinutesAfterOnset([.awake, .light, .rem, .light]))
        XCTAssertNil(firstDeepSleepMinutesAfterOnset([]))
    }
}

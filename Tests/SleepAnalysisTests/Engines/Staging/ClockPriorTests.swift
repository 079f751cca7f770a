import XCTest

@testable import SleepAnalysis

final class ClockPriorTests: XCTestCase {
    private let rows: [[Double]] = [[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.7, 0.1]]

    /// Hours pick their bin; times before the start take the first, times after the last bin the last.
    func test_probabilities_pick_the_bin_and_clamp_at_both_ends() {
        let prior = ClockPrior(binHours: 0.5, probabilities: rows)
        XCTAssertEqual(prior.probabilities(atHours: 0.7), rows[1])
        XCTAssertEqual(prior.probabilities(atHours: -3), rows[0])
        XCTAssertEqual(prior.probabilities(atHours: 9), rows[2])
    }

    /// A model file's tiny `binHours` (it loads: only > 0 is required) made the bin overflow `Int` and trap at the
    /// first epoch without sensor input (found reviewing the staging loader for its fuzz harness, issue 23).
    func test_probabilities_do_not_trap_for_a_tiny_bin_width_or_nan_hours() throws {
        let prior = ClockPrior(binHours: 1e-300, probabilities: rows)
        XCTAssertNoThrow(try prior.validate())
        XCTAssertEqual(prior.probabilities(atHours: 8), rows[2])
        XCTAssertEqual(prior.probabilities(atHours: .nan), rows[0])
    }
}

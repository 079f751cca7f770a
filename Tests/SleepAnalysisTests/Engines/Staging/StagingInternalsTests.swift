import Foundation
import XCTest

@testable import SleepAnalysis

final class StagingInternalsTests: XCTestCase {
    private let sequence = StageSequenceModel(
        initial: [0.97, 0.01, 0.01, 0.01],
        transitions: [
            [0.94, 0.05, 0.005, 0.005], [0.02, 0.92, 0.04, 0.02], [0.01, 0.14, 0.85, 0.0], [0.01, 0.04, 0.0, 0.95],
        ],
        classPriors: [0.25, 0.25, 0.25, 0.25])

    func test_sequenceModel_smooths_away_a_one_epoch_blip_but_keeps_a_long_run() {
        // Given: light sleep with one weakly "awake" epoch at 10, and a confident REM run from 20.
        var posteriors = [[Double]](repeating: [0.1, 0.7, 0.1, 0.1], count: 30)
        posteriors[10] = [0.45, 0.35, 0.1, 0.1]
        for index in 20..<30 { posteriors[index] = [0.05, 0.15, 0.05, 0.75] }
        let emissions = posteriors.map { sequence.emission($0, priorExponent: 1) }

        // When
        let smoothed = sequence.smoothed(emissions)

        // Then
        XCTAssertEqual(smoothed.count, 30)
        XCTAssertLessThan(smoothed[10][0], 0.5, "an isolated weak wake epoch inside sleep is smoothed out")
        XCTAssertGreaterThan(smoothed[25][3], 0.9)
        for row in smoothed { XCTAssertEqual(row.reduce(0, +), 1, accuracy: 1e-9) }
    }

    func test_forwardStep_depends_only_on_the_past() {
        // Given
        let evidence = sequence.emission([0.2, 0.6, 0.1, 0.1], priorExponent: 1)
        let first = sequence.forwardStep(previous: nil, emission: evidence)

        // When
        let second = sequence.forwardStep(previous: first, emission: [1, 1, 1, 1])

        // Then: an uninformative epoch just propagates the previous belief through the transitions.
        for to in 0..<4 {
            let expected = (0..<4).reduce(0) { $0 + first[$1] * sequence.transitions[$1][to] }
            XCTAssertEqual(second[to], expected, accuracy: 1e-12)
        }
    }

    func test_tree_routes_missing_values_like_lightgbm() throws {
        // Given: one split on feature 0 at 0.5; NaN-missing nodes send NaN to the default (right) side.
        func tree(missingType: Int) -> DecisionTree {
            DecisionTree(
                feature: [0], threshold: [0.5], left: [-1], right: [-2], defaultLeft: [false],
                missingType: [missingType], leaf: [1, 2])
        }

        // Then
        XCTAssertEqual(tree(missingType: 2).value([.nan]), 2, "NaN-missing: NaN goes to the default side")
        XCTAssertEqual(tree(missingType: 0).value([.nan]), 1, "no missing type: NaN counts as 0 (≤ 0.5)")
        XCTAssertEqual(tree(missingType: 1).value([0]), 2, "zero-missing: 0 goes to the default side")
        XCTAssertEqual(tree(missingType: 2).value([0.4]), 1)
        XCTAssertEqual(tree(missingType: 2).value([0.6]), 2)
    }

    func test_runningDistribution_ranks_and_quantiles() {
        // Given
        var distribution = RunningDistribution()
        for value in [4.0, 1, 3, 3, 2] { distribution.insert(value) }
        distribution.insert(.nan)

        // Then
        XCTAssertEqual(distribution.count, 5)
        XCTAssertEqual(distribution.mean, 2.6)
        XCTAssertEqual(distribution.percentileRank(of: 3), 0.6)  // 2 below, 2 ties: (2 + 1) / 5
        XCTAssertEqual(distribution.quantile(0.5), 3)
        XCTAssertEqual(distribution.quantile(0.25), 2)
        XCTAssertEqual(distribution.quantile(1), 4)
    }
}

import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation
import TestSupport
import XCTest

final class WalchStagingTests: XCTestCase {
    private func walchRoot() throws -> URL {
        // ../shared/data beside the repository; a worktree elsewhere may point SLEEPANALYSIS_SHARED_DATA at it.
        let override = ProcessInfo.processInfo.environment["SLEEPANALYSIS_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
        guard let shared = FixturePaths.sharedData ?? override else {
            throw XCTSkip("needs ../shared/data (walch staging data)")
        }
        let root = shared.appendingPathComponent("staging/walch")
        guard FileManager.default.fileExists(atPath: root.path) else {
            throw XCTSkip("needs ../shared/data/staging/walch")
        }
        return root
    }

    func test_walchNight_aligns_feature_rows_with_psg_labels() throws {
        // Given / When
        let night = try WalchNight(subjectId: "3509524", root: try walchRoot())

        // Then: 415 valid rows, contiguous from PSG time 30 s, with heart rate in most epochs.
        XCTAssertEqual(night.epochs.count, 415)
        XCTAssertEqual(night.epochs[0].start.timeIntervalSince(night.sessionStart), 30)
        XCTAssertEqual(night.labels.compactMap { $0 }.count, 415)
        XCTAssertGreaterThan(night.epochs.filter { $0.heartRate != nil }.count, 400)
    }

    func test_wholeNight_staging_of_a_walch_subject_agrees_with_psg() throws {
        // Given: the bundled model (trained on all 23 subjects, this one included: a sanity check, not a
        // held-out figure; the held-out figures come from `evaluate staging --model-dir`).
        let night = try WalchNight(subjectId: "3509524", root: try walchRoot())

        // When
        let evaluation = try StagingEvaluation(nights: [night]) { _ in try StagingModel.bundled() }

        // Then
        XCTAssertEqual(evaluation.wholeNight.epochs, 415)
        XCTAssertGreaterThan(evaluation.wholeNight.fourClass.kappa, 0.4)
        XCTAssertGreaterThan(evaluation.realTime.sleepWake.kappa, 0.3)
    }

    func test_evaluate_command_prints_the_documented_json() throws {
        // Given: the built command-line tool beside the test bundle.
        let root = try walchRoot()
        let arguments = [
            "evaluate", "staging", "--dataset", "walch", "--root", root.path, "--format", "json",
            "--subjects", "3509524",
        ]

        // When
        let output = try runCommandLineTool(arguments, timeout: 60)
        let data = Data(output.standardOutput.utf8)

        // Then
        XCTAssertEqual(output.status, 0, output.standardError)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let four = try XCTUnwrap(json["fourClass"] as? [String: Any])
        XCTAssertNotNil(four["accuracy"] as? Double)
        XCTAssertNotNil(four["kappa"] as? Double)
        XCTAssertEqual(
            Set((four["perStageRecall"] as? [String: Double])?.keys ?? [:].keys),
            ["awake", "light", "deep", "rem"])
        let three = try XCTUnwrap(json["threeClass"] as? [String: Any])
        XCTAssertNotNil(three["kappa"] as? Double)
        let sleepWake = try XCTUnwrap(json["sleepWake"] as? [String: Any])
        for key in ["accuracy", "kappa", "wakeSpecificity", "sleepSensitivity"] {
            XCTAssertNotNil(sleepWake[key] as? Double, key)
        }
        let realTime = try XCTUnwrap(json["realTime"] as? [String: Any])
        for context in [json, realTime] {
            let ece = try XCTUnwrap(context["expectedCalibrationError"] as? Double)
            XCTAssertTrue((0...1).contains(ece))
            let bins = try XCTUnwrap(context["reliability"] as? [[String: Any]])
            XCTAssertEqual(bins.count, 10)
            XCTAssertEqual(bins.compactMap { $0["epochs"] as? Int }.reduce(0, +), 415)
            let intervals = try XCTUnwrap(context["intervals"] as? [String: Any])
            XCTAssertNotNil(intervals["fourClassKappa"] as? [String: Any])
        }
        XCTAssertNotNil((json["totalSleepRange"] as? [String: Any])?["coverage"] as? Double)
        let subjects = try XCTUnwrap(json["subjects"] as? [[String: Any]])
        XCTAssertEqual(subjects.compactMap { $0["subject"] as? String }, ["3509524"])
    }

    func test_metrics_kappa_matches_hand_computation() {
        // Given: 10 epochs; truth W W W L L L L D R R, predicted W L W L L D L D R L.
        let truth: [SleepStage] = [.awake, .awake, .awake, .light, .light, .light, .light, .deep, .rem, .rem]
        let predicted: [SleepStage] = [.awake, .light, .awake, .light, .light, .deep, .light, .deep, .rem, .light]

        // When
        let metrics = StagingMetrics(pairs: Array(zip(truth, predicted)).map { (truth: $0.0, predicted: $0.1) })

        // Then: observed 7/10; chance = (3·2 + 4·5 + 1·2 + 2·1) / 100 = 0.30; kappa = 0.4 / 0.7.
        XCTAssertEqual(metrics.fourClass.accuracy, 0.7, accuracy: 1e-12)
        XCTAssertEqual(metrics.fourClass.kappa, 0.4 / 0.7, accuracy: 1e-12)
        XCTAssertEqual(metrics.fourClass.perStageRecall["awake"]!, 2.0 / 3.0, accuracy: 1e-12)
        // Sleep/wake: wake 2 of 3 right, sleep 7 of 7 right.
        XCTAssertEqual(metrics.sleepWake.wakeSpecificity, 2.0 / 3.0, accuracy: 1e-12)
        XCTAssertEqual(metrics.sleepWake.sleepSensitivity, 1, accuracy: 1e-12)
        XCTAssertEqual(metrics.sleepWake.accuracy, 0.9, accuracy: 1e-12)
    }

    func test_reliability_tally_computes_the_expected_calibration_error_by_hand() {
        // Given: 4 epochs at 0.95 (3 right) and 6 at 0.55 (3 right)
        var tally = ReliabilityTally()
        for index in 0..<4 { tally.add(confidence: 0.95, isCorrect: index < 3) }
        for index in 0..<6 { tally.add(confidence: 0.55, isCorrect: index < 3) }

        // Then: (4 × |0.75 − 0.95| + 6 × |0.5 − 0.55|) / 10
        XCTAssertEqual(tally.expectedCalibrationError, (4 * 0.2 + 6 * 0.05) / 10, accuracy: 1e-12)
        XCTAssertEqual(tally.bins[9].epochs, 4)
        XCTAssertEqual(tally.bins[5].accuracy, 0.5, accuracy: 1e-12)
        XCTAssertTrue(tally.bins[0].meanConfidence.isNaN)
    }

    func test_subject_bootstrap_interval_is_reproducible_and_brackets_the_figure() throws {
        let groups = (0..<20).map { Double($0) }
        let mean: ([Double]) -> Double = { $0.reduce(0, +) / Double($0.count) }
        let first = try XCTUnwrap(SubjectBootstrap.interval(groups: groups, statistic: mean))
        let second = try XCTUnwrap(SubjectBootstrap.interval(groups: groups, statistic: mean))
        XCTAssertEqual(first, second)
        XCTAssertLessThan(first.lower, 9.5)
        XCTAssertGreaterThan(first.upper, 9.5)
        XCTAssertGreaterThan(first.lower, 5)
        XCTAssertLessThan(first.upper, 14)
    }
}

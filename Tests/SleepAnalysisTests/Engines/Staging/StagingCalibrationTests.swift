import Foundation
import SleepAnalysis
import TestSupport
import XCTest

final class StagingCalibrationTests: XCTestCase {
    /// The bundled model file as JSON, with `change` applied, written to a temporary file and loaded.
    private func bundledModel(_ change: (inout [String: Any]) -> Void) throws -> StagingModel {
        let bundled = FixturePaths.repositoryRoot.appendingPathComponent("Models/staging.json")
        var json = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: bundled)) as? [String: Any])
        change(&json)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("staging-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return try StagingModel.load(from: url)
    }

    private func stage(_ model: StagingModel) -> (whole: [SleepStagePrediction], realTime: [SleepStagePrediction]) {
        var stager = SleepStager(model: model, sessionStart: SyntheticNight.start)
        for epoch in SyntheticNight.epochs() { stager.addEpoch(epoch) }
        return (stager.wholeNight(), stager.realTimePredictions)
    }

    func test_bundled_model_tempers_its_probabilities_and_keeps_every_stage() throws {
        // Given: the shipped model, and the same model without its calibration
        let calibrated = try StagingModel.bundled()
        let raw = try bundledModel { $0["calibration"] = nil }

        // When: one synthetic night is staged by each
        let withCalibration = stage(calibrated), without = stage(raw)

        // Then: every epoch has the same stage in both contexts, its probabilities sum to 1, and the top
        // probability is lower with the calibration (the inner folds found the classifiers over-confident)
        for (context, pair) in [
            ("whole night", (withCalibration.whole, without.whole)),
            ("real time", (withCalibration.realTime, without.realTime)),
        ] {
            XCTAssertEqual(pair.0.map(\.stage), pair.1.map(\.stage), context)
            var lowered = 0
            for (a, b) in zip(pair.0, pair.1) {
                let sum = a.probabilities.awake + a.probabilities.light + a.probabilities.deep + a.probabilities.rem
                XCTAssertEqual(sum, 1, accuracy: 1e-9)
                XCTAssertLessThanOrEqual(a.probabilities[a.stage], b.probabilities[b.stage] + 1e-12, context)
                if a.probabilities[a.stage] < b.probabilities[b.stage] - 0.01 { lowered += 1 }
            }
            XCTAssertGreaterThan(lowered, pair.0.count / 2, context)
        }
    }

    func test_load_rejects_a_temperature_out_of_range() throws {
        for temperature in [0.0, -1.0, 100.0] {
            XCTAssertThrowsError(
                try bundledModel {
                    $0["calibration"] = ["causal": ["temperature": temperature], "wholeNight": ["temperature": 1.0]]
                }
            ) { error in
                guard case SleepCycleSdkError.modelIntegrityCheckFailed(let why) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(why.contains("calibration"), why)
            }
        }
    }
}

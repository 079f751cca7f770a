import Foundation
import XCTest

@testable import SleepAnalysis

/// The sleep-architecture prior: its file, and what it does to one epoch's probabilities.
final class SleepArchitecturePriorTests: XCTestCase {
    func test_at_sleep_onset_deep_and_rem_give_way_to_light_and_wake_is_unchanged() throws {
        let prior = try SleepArchitecturePrior.bundled()
        let posterior = [0.2, 0.2, 0.4, 0.2]
        let atOnset = prior.apply(to: posterior, minutesAsleep: 0)
        XCTAssertEqual(atOnset[0], 0.2, accuracy: 1e-12)
        XCTAssertEqual(atOnset.reduce(0, +), 1, accuracy: 1e-12)
        XCTAssertGreaterThan(atOnset[1], 0.75, "light takes the sleep probability at onset")
        XCTAssertLessThan(atOnset[2], 0.02)
        XCTAssertLessThan(atOnset[3], 0.02)
        // An hour asleep deep sleep is no longer held back; five hours asleep, REM is not.
        XCTAssertGreaterThan(prior.apply(to: posterior, minutesAsleep: 60)[2], 0.3)
        let late = prior.apply(to: posterior, minutesAsleep: 300)
        XCTAssertGreaterThan(late[3], 0.2)
        XCTAssertEqual(late[0], 0.2, accuracy: 1e-12)
    }

    func test_the_bundled_model_carries_the_shipped_prior() throws {
        let model = try StagingModel.bundled()
        let shipped = try SleepArchitecturePrior.bundled()
        XCTAssertEqual(model.architecture.sharesByMinutesAsleep, shipped.sharesByMinutesAsleep)
        XCTAssertEqual(model.architecture.binStartMinutesAsleep, shipped.binStartMinutesAsleep)
    }

    func test_a_malformed_prior_is_refused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prior-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("staging-architecture.json")
        var json = try XCTUnwrap(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: BundledResources.model("staging-architecture.json")))
                as? [String: Any])
        json["binStartMinutesAsleep"] = [5, 10]
        try JSONSerialization.data(withJSONObject: json).write(to: url)
        XCTAssertThrowsError(try SleepArchitecturePrior.load(from: url)) { error in
            guard case .modelIntegrityCheckFailed = error as? SleepCycleSdkError else {
                return XCTFail("unexpected error \(error)")
            }
        }
    }
}

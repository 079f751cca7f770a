import Foundation
import TestSupport
import XCTest

/// The bundled demo night, sound only (no accelerometer): a plausible start of sleep, snoring staged as sleep,
/// and a report that says the mode is not validated and the recording too short for a score; with its
/// accelerometer, the snoring is staged as sleep too.
final class DemoNightStagingCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "demo-night-staging")
    }

    override func tearDown() {
        directory.remove()
        super.tearDown()
    }

    /// A state directory of the test's own, so another `analyze` on the machine cannot hold it.
    private var storage: String { directory.url.appendingPathComponent("state").path }

    /// Analyses the demo night (with `extra` options) and returns its JSON report.
    private func analyzeDemoNight(_ extra: [String] = []) throws -> [String: Any] {
        let night = FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path
        let output = try runCommandLineTool(
            ["analyze", night] + extra + [
                "--start", "2026-12-01T23:00:00Z", "--format", "json", "--quiet", "--no-store", "--storage", storage,
            ],
            timeout: 120)
        XCTAssertEqual(output.status, 0, output.standardError)
        return try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    func test_the_sound_only_demo_night_has_no_early_deep_sleep_and_sleeps_through_its_snoring() throws {
        let report = try analyzeDemoNight()

        let basis = try XCTUnwrap(report["stagingBasis"] as? [String: Any])
        XCTAssertEqual(basis["mode"] as? String, "soundOnly")
        XCTAssertEqual(basis["isValidated"] as? Bool, false)
        XCTAssertNil(report["score"])
        XCTAssertEqual(report["scoreUnavailableReason"] as? String, "shortRecording")

        // Whole night, epoch by epoch (30 s from the start), and real time as intervals expanded to epochs.
        let predictions = try XCTUnwrap(report["sleepStagePredictions"] as? [[String: Any]])
        let wholeNight = predictions.compactMap { $0["stage"] as? String }
        XCTAssertEqual(wholeNight.count, 60)
        let intervals = try XCTUnwrap(report["realTimeSleepStageIntervals"] as? [[String: Any]])
        let realTime = try intervals.flatMap { interval -> [String] in
            let stage = try XCTUnwrap(interval["stage"] as? String)
            let span = try XCTUnwrap(interval["interval"] as? [String: Any])
            let seconds = try XCTUnwrap(span["duration"] as? Double)
            return Array(repeating: stage, count: Int((seconds / 30).rounded(.up)))
        }
        for (name, stages) in [("whole night", wholeNight), ("real time", realTime)] {
            let onset = try XCTUnwrap(stages.firstIndex { $0 != "awake" }, "\(name): no sleep")
            let firstQuarterHour = stages[onset..<min(stages.count, onset + 30)]
            XCTAssertFalse(firstQuarterHour.contains("deep"), "\(name): deep sleep within 15 min of onset: \(stages)")
            XCTAssertFalse(stages[onset...].prefix(30).contains("rem"), "\(name): REM within 15 min of onset")
            // Snoring from 10:00 to 13:00: epochs 20 to 25.
            XCTAssertFalse(stages[20..<26].contains("awake"), "\(name): snoring staged awake: \(stages)")
            // Before it the sleeper lies awake (the accelerometer moves); sound alone hears nothing, and the
            // sleep-onset prior keeps the first minutes awake.
            XCTAssertEqual(stages[0..<10].filter { $0 == "awake" }.count, 10, "\(name): \(stages)")
        }
    }

    func test_with_the_accelerometer_the_demo_night_sleeps_through_its_snoring() throws {
        let accelerometer = FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv").path
        let report = try analyzeDemoNight(["--accelerometer", accelerometer])
        let basis = try XCTUnwrap(report["stagingBasis"] as? [String: Any])
        XCTAssertEqual(basis["mode"] as? String, "activity")
        let predictions = try XCTUnwrap(report["sleepStagePredictions"] as? [[String: Any]])
        let stages = predictions.compactMap { $0["stage"] as? String }
        XCTAssertEqual(stages.count, 60)
        // Snoring from 10:00 to 13:00 (epochs 20 to 25); the accelerometer alone calls those minutes awake.
        XCTAssertFalse(stages[20..<26].contains("awake"), "snoring staged awake: \(stages)")
        // Before the snoring the sleeper lies awake, moving: snoring evidence does not leak into silence.
        XCTAssertEqual(stages[0..<10].filter { $0 == "awake" }.count, 10, "\(stages)")
    }
}

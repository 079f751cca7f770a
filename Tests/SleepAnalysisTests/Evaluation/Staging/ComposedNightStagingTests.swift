import Foundation
import TestSupport
import XCTest

/// Sound-only staging on one night composed from a real Sleep-EDF hypnogram (`evaluate composed-staging`):
/// the basic architecture facts must hold on it.
final class ComposedNightStagingTests: XCTestCase {
    func test_sound_only_staging_of_a_composed_night_respects_sleep_architecture() throws {
        guard let shared = FixturePaths.sharedData,
            FileManager.default.fileExists(atPath: shared.appendingPathComponent("audio/MANIFEST.tsv").path)
        else { throw XCTSkip("needs ../shared/data (Sleep-EDF hypnograms and labelled clips)") }
        // 24 minutes from 8 minutes before the scored sleep onset of SC4011E0, sounds and movements placed by
        // the published rules. SC4011E0 is the first hypnogram by name whose own first deep sleep comes more than
        // 15 minutes after its onset (39 min; SC4001E0 and SC4002E0 have deep sleep after 8.5 and 10 min), so the
        // facts below hold for its scored stages.
        let output = try runCommandLineTool(
            [
                "evaluate", "composed-staging",
                "--hypnograms", shared.appendingPathComponent("staging/sleepedf_hypnograms/epochs").path,
                "--clips", shared.appendingPathComponent("audio").path,
                "--names", "SC4011E0", "--hours", "0.4", "--lead-minutes", "8", "--modes", "sound", "--format", "json",
            ], timeout: 120)
        XCTAssertEqual(output.status, 0, output.standardError)
        let report = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let modes = try XCTUnwrap(report["modes"] as? [[String: Any]])
        let nights = try XCTUnwrap(modes.first?["nights"] as? [[String: Any]])
        let night = try XCTUnwrap(nights.first)
        XCTAssertEqual(night["night"] as? String, "SC4011E0")
        XCTAssertEqual(night["stagingBasis"] as? String, "soundOnly")
        // The excerpt ends 16 minutes after the scored onset, before the hypnogram's first deep sleep (39 min).
        XCTAssertNil(night["scoredFirstDeepMinutesAfterOnset"], "the hypnogram has no deep sleep in the excerpt")
        XCTAssertEqual(modes.first?["scoredDeepWithin15MinutesNights"] as? Int, 0)
        for context in ["wholeNight", "realTime"] {
            let figures = try XCTUnwrap(night[context] as? [String: Any])
            XCTAssertEqual(
                figures["deepWithin15MinutesOfOnset"] as? Bool, false, "\(context): deep sleep within 15 min of onset")
            let snoring = try XCTUnwrap(figures["snoringStagedAsleep"] as? Double, "\(context): no snoring composed")
            XCTAssertGreaterThanOrEqual(snoring, 0.9, "\(context): composed snoring staged awake")
            let movingWake = try XCTUnwrap(
                figures["movingWakeStagedAwake"] as? Double, "\(context): no movement while awake composed")
            XCTAssertGreaterThan(movingWake, 0.5, "\(context): wake with movement staged asleep")
        }
    }

    func test_a_telephone_band_night_is_staged_with_the_band_limited_event_model() throws {
        guard let shared = FixturePaths.sharedData,
            FileManager.default.fileExists(atPath: shared.appendingPathComponent("audio/MANIFEST.tsv").path)
        else { throw XCTSkip("needs ../shared/data (Sleep-EDF hypnograms and labelled clips)") }
        // The night above through 8 kHz: the result says the audio is band-limited (the events detector switched
        // to its band-limited model), and the composed snoring is still heard and staged asleep.
        let output = try runCommandLineTool(
            [
                "evaluate", "composed-staging",
                "--hypnograms", shared.appendingPathComponent("staging/sleepedf_hypnograms/epochs").path,
                "--clips", shared.appendingPathComponent("audio").path,
                "--names", "SC4011E0", "--hours", "0.4", "--lead-minutes", "8", "--modes", "sound",
                "--band-limit", "8k", "--format", "json",
            ], timeout: 120)
        XCTAssertEqual(output.status, 0, output.standardError)
        let report = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(report["audio"] as? String, "8k")
        let mode = try XCTUnwrap((report["modes"] as? [[String: Any]])?.first)
        XCTAssertEqual(mode["bandLimitedAudioNights"] as? Int, 1)
        let night = try XCTUnwrap((mode["nights"] as? [[String: Any]])?.first)
        XCTAssertEqual(night["bandLimitedAudio"] as? Bool, true)
        let whole = try XCTUnwrap(night["wholeNight"] as? [String: Any])
        let snoring = try XCTUnwrap(whole["snoringStagedAsleep"] as? Double)
        XCTAssertGreaterThanOrEqual(snoring, 0.9, "composed snoring staged awake")
    }

    func test_a_bad_command_line_is_a_usage_error() throws {
        let missing = try runCommandLineTool(["evaluate", "composed-staging", "--clips", "/nonexistent"])
        XCTAssertEqual(missing.status, 64, missing.standardError)
        let mode = try runCommandLineTool(
            ["evaluate", "composed-staging", "--hypnograms", "/a", "--clips", "/b", "--modes", "heartRate"])
        XCTAssertEqual(mode.status, 64, mode.standardError)
        XCTAssertTrue(mode.standardError.contains("heartRate"), mode.standardError)
        let band = try runCommandLineTool(
            ["evaluate", "composed-staging", "--hypnograms", "/a", "--clips", "/b", "--band-limit", "2k"])
        XCTAssertEqual(band.status, 64, band.standardError)
        XCTAssertTrue(band.standardError.contains("2k"), band.standardError)
    }
}

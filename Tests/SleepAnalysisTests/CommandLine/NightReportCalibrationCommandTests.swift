import Foundation
import TestSupport
import XCTest

/// The demo night's report calls its sound level relative and uncalibrated; `analyze --calibration-offset` (as `spl`
/// takes it) makes it dB(A) SPL, shifted by exactly the offset's difference from the default, with the rest of the
/// analysis unchanged; an offset out of range is a usage error.
final class NightReportCalibrationCommandTests: XCTestCase {
    func test_the_demo_nights_level_is_relative_until_analyze_is_given_a_calibration_offset() throws {
        let directory = try makeTemporaryDirectory(self)
        let relative = try String(
            contentsOf: try NightReportBrowserTests.demoReport(in: directory), encoding: .utf8)
        XCTAssertTrue(relative.contains("Sound level (relative, uncalibrated)"), relative)
        XCTAssertTrue(relative.contains("Relative level, uncalibrated: the loudest minute was 17.8 dB above"))
        XCTAssertFalse(relative.contains("dB(A) SPL"), "an uncalibrated level is not a sound pressure level")
        XCTAssertFalse(relative.contains("LAeq"), "no absolute level without a calibration")

        // A quiet bedroom's microphone: 94 dB SPL reads -14 dBFS (offset 108 dB, 12 dB under the default guess).
        let calibrated = try String(
            contentsOf: try NightReportBrowserTests.demoReport(in: directory, extra: ["--calibration-offset", "108"]),
            encoding: .utf8)
        XCTAssertTrue(calibrated.contains("<h2 id=\"sound-level-title\">Sound level</h2>"), calibrated)
        XCTAssertTrue(calibrated.contains("dB SPL = dBFS + 108.0 dB"), calibrated)
        XCTAssertFalse(calibrated.contains("uncalibrated"), calibrated)
        let leq = try XCTUnwrap(Self.number(after: "LAeq ", in: calibrated), "the LAeq is given")
        // The same minutes as `spl` measures them over the whole file (58.4 to 76.2 at the default offset): 12 dB
        // lower, the loudest minute still 17.8 dB over the quietest.
        let spl = try runCommandLineTool(
            [
                "spl", FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path, "--calibration-offset",
                "108", "--format", "json",
            ])
        XCTAssertEqual(spl.status, 0, spl.standardError)
        let whole = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(spl.standardOutput.utf8)) as? [String: Any])?["leq"]
                as? Double)
        XCTAssertEqual(leq, whole, accuracy: 0.5, "the night's LAeq is the file's, as spl measures it")
        XCTAssertTrue(calibrated.contains("quietest minute 46.4 dB(A) SPL, loudest 64.2."), calibrated)

        let tooHigh = try runCommandLineTool(
            [
                "analyze", FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path, "--no-store",
                "--calibration-offset", "250",
            ])
        XCTAssertEqual(tooHigh.status, 64, tooHigh.standardError)
        XCTAssertTrue(tooHigh.standardError.contains("--calibration-offset must be between 0 and 200 dB"))
    }

    /// The number after `prefix` in `text` (`LAeq 58.4 dB…` → 58.4).
    private static func number(after prefix: String, in text: String) -> Double? {
        guard let range = text.range(of: prefix) else { return nil }
        return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
    }
}

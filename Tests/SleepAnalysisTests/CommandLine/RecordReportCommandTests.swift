import Foundation
import XCTest

/// `record --report` end to end on a real ALSA device: ALSA's `file` plugin (defined in the `.asoundrc` of a
/// temporary home) plays a raw recording into the capture, and the HTML night report is written from what was
/// captured, sound level included. Like `analyze`, `record` saves the night in the default session store unless
/// `--no-store`.
final class RecordReportCommandTests: XCTestCase {
    func test_record_writes_the_night_report_of_what_it_captured() throws {
        let home = try makeTemporaryDirectory(self)
        let capture = home.appendingPathComponent("capture.raw")
        try Self.breathingNoise(seconds: 12).write(to: capture)
        let asoundrc = """
            pcm.sleepanalysis_report_test {
                type file
                slave.pcm { type null }
                file "/dev/null"
                infile "\(capture.path)"
                format "raw"
            }

            """
        try Data(asoundrc.utf8).write(to: home.appendingPathComponent(".asoundrc"))
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        let report = home.appendingPathComponent("night.html")

        let output = try runCommandLineTool(
            [
                "record", "--device", "sleepanalysis_report_test", "--duration", "6", "--report", report.path,
                "--storage", home.appendingPathComponent("state").path,
            ], environment: environment, timeout: 60)

        XCTAssertEqual(output.status, 0, output.standardError)
        let html = try String(contentsOf: report, encoding: .utf8)
        for section in ["summary", "headline", "sound-level", "about"] {
            XCTAssertTrue(html.contains("id=\"\(section)\""), "the report has the \(section) section")
        }
        XCTAssertTrue(html.contains("Relative level, uncalibrated"), "the level the capture measured, relative")
        XCTAssertFalse(html.contains("dB(A) SPL"), "not a sound pressure level without a calibration")
        XCTAssertTrue(html.contains("No score: the recording is short"), "a 6-second capture is not scored")

        // The night is in the default store; a second capture with --no-store adds none. With a calibration its
        // report gives sound pressure levels.
        let calibrated = home.appendingPathComponent("calibrated.html")
        let again = try runCommandLineTool(
            [
                "record", "--device", "sleepanalysis_report_test", "--duration", "2", "--no-store",
                "--storage", home.appendingPathComponent("state").path, "--calibration-offset", "100",
                "--report", calibrated.path,
            ], environment: environment, timeout: 60)
        XCTAssertEqual(again.status, 0, again.standardError)
        let calibratedHtml = try String(contentsOf: calibrated, encoding: .utf8)
        XCTAssertTrue(calibratedHtml.contains("dB(A) SPL"), calibratedHtml)
        XCTAssertTrue(calibratedHtml.contains("dB SPL = dBFS + 100.0 dB"), calibratedHtml)
        let history = try runCommandLineTool(["history", "--format", "json"], environment: environment)
        XCTAssertEqual(history.status, 0, history.standardError)
        let stored = try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [String: Any]
        XCTAssertEqual((stored?["nights"] as? [Any])?.count, 1, history.standardOutput)
        let both = try runCommandLineTool(
            ["record", "--store", home.path, "--no-store"], environment: environment, timeout: 20)
        XCTAssertEqual(both.status, 64, both.standardError)
    }

    /// Signed 16-bit mono samples at 16 kHz: noise whose loudness swells and falls every 4 seconds, like breath.
    private static func breathingNoise(seconds: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var samples: [Int16] = []
        samples.reserveCapacity(seconds * 16_000)
        for index in 0..<(seconds * 16_000) {
            let swell = 0.5 + 0.5 * sin(2 * Double.pi * Double(index) / 64_000)
            let noise = Double.random(in: -1...1, using: &generator)
            samples.append(Int16(noise * swell * 6_000))
        }
        return samples.withUnsafeBytes { Data($0) }
    }
}

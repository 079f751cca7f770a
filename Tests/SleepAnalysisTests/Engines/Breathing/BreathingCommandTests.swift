import Foundation
import TestSupport
import XCTest

/// `sleepanalysis breathing` exits 65 (bad input data) when its input files are missing or malformed.
final class BreathingCommandTests: XCTestCase {
    func test_breathing_exits_65_for_a_missing_audio_file_and_a_malformed_accelerometer_file() throws {
        let directory = try makeTemporaryDirectory(self)
        let missing = try runCommandLineTool(["breathing", directory.appendingPathComponent("none.wav").path])
        XCTAssertEqual(missing.status, 65, missing.standardError)
        XCTAssertTrue(missing.standardError.contains("none.wav"), missing.standardError)

        let csv = directory.appendingPathComponent("bad.csv")
        try Data("timestamp,x,y,z\n0,1\n".utf8).write(to: csv)
        let malformed = try runCommandLineTool(["breathing", "--accelerometer", csv.path])
        XCTAssertEqual(malformed.status, 65, malformed.standardError)
        XCTAssertTrue(malformed.standardError.contains("bad.csv"), malformed.standardError)
    }

    func test_breathing_tuning_options_out_of_range_are_usage_errors() throws {
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        for arguments in [
            ["--minimum-score", "0"], ["--minimum-score", "1.5"], ["--harmonic-fraction", "-0.1"],
            ["--neighbour-windows", "21"],
        ] {
            let output = try runCommandLineTool(["breathing", clip] + arguments)
            XCTAssertEqual(output.status, 64, "\(arguments): \(output.standardError)")
        }
        // In range, the clip's rate is still found (15 breaths/min)
        let output = try runCommandLineTool(
            ["breathing", clip, "--minimum-score", "0.1", "--harmonic-fraction", "0", "--format", "json"])
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertTrue(output.standardOutput.contains("\"rates\""), output.standardOutput)
    }
}

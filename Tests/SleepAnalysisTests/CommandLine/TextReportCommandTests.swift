import Foundation
import TestSupport
import XCTest

/// The text report's hypnogram line states what one character spans and what each symbol means.
final class TextReportCommandTests: XCTestCase {
    func test_the_hypnogram_line_has_a_key_and_states_its_span() throws {
        let directory = try makeTemporaryDirectory(self)
        let night = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        let output = try runCommandLineTool(
            ["analyze", night, "--no-store", "--quiet", "--storage", directory.path], timeout: 60)
        XCTAssertEqual(output.status, 0, output.standardError)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        let index = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("Hypnogram") }, output.standardOutput)
        // The 75-second clip fits 96 characters at one per minute: two characters.
        let symbols = lines[index].dropFirst("Hypnogram         ".count)
        XCTAssertEqual(symbols.count, 2, lines[index])
        XCTAssertTrue(symbols.allSatisfy { "WR-_ ".contains($0) }, lines[index])
        XCTAssertEqual(
            lines[index + 1].trimmingCharacters(in: .whitespaces),
            "one character per 1 min: W awake, R REM, - light, _ deep, blank unstaged")
    }

    func test_a_short_recording_has_no_score_and_the_report_says_it_is_short() throws {
        let directory = try makeTemporaryDirectory(self)
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        let text = try runCommandLineTool(
            ["analyze", clip, "--no-store", "--quiet", "--storage", directory.path], timeout: 60)
        XCTAssertEqual(text.status, 0, text.standardError)
        XCTAssertTrue(
            text.standardOutput.contains("Sleep score       none: the recording is short"), text.standardOutput)
        let json = try runCommandLineTool(
            ["analyze", clip, "--no-store", "--quiet", "--format", "json", "--storage", directory.path], timeout: 60)
        let report = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        XCTAssertNil(report["score"])
        XCTAssertEqual(report["scoreUnavailableReason"] as? String, "shortRecording")
    }
}

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
}

import Foundation
import TestSupport
import XCTest

/// Ctrl-C during `analyze`: the partial result is printed, stderr says how to resume, exit 130, and `--resume`
/// then finishes the night.
final class AnalyzeInterruptTests: XCTestCase {
    func test_SIGINT_prints_the_partial_result_and_the_resume_command_and_resume_completes() throws {
        let storage = try makeTemporaryDirectory(self).appendingPathComponent("state")
        let night = FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path
        let arguments = [
            "analyze", night, "--start", "2026-12-01T23:00:00Z", "--storage", storage.path, "--format", "json",
            "--quiet",
        ]
        let process = Process()
        process.executableURL = try builtCommandLineTool()
        process.arguments = arguments + ["--pace", "20"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        Thread.sleep(forTimeInterval: 2)
        XCTAssertTrue(process.isRunning, "the 30-minute night at pace 20 should still be running")
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

        XCTAssertEqual(process.terminationStatus, 130, stderr)
        XCTAssertEqual(process.terminationReason, .exit)
        let partial = try XCTUnwrap(try JSONSerialization.jsonObject(with: stdout) as? [String: Any], stderr)
        XCTAssertNotNil(partial["sessionId"])
        XCTAssertTrue(stderr.contains("interrupted"), stderr)
        XCTAssertTrue(stderr.contains("sleepanalysis analyze \(night)"), stderr)
        XCTAssertTrue(stderr.contains("--resume"), stderr)

        let resumed = try runCommandLineTool(arguments + ["--resume"], timeout: 120)
        XCTAssertEqual(resumed.status, 0, resumed.standardError)
        let whole = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(resumed.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(whole["sessionId"] as? String, partial["sessionId"] as? String)
        XCTAssertGreaterThan(
            try XCTUnwrap(whole["endTime"] as? String), try XCTUnwrap(partial["endTime"] as? String))
    }
}

import Foundation
import TestSupport
import XCTest

/// `analyze` checks where its files go before it analyses anything: a report, hypnogram or CSV folder that cannot be
/// written is a usage error (exit 64) at once, naming the option, instead of an error after a night's analysis.
final class OutputDestinationCommandTests: XCTestCase {
    func test_unwritable_destinations_are_refused_before_the_analysis_and_writable_ones_are_written() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent("a-file.txt")
        try Data("x".utf8).write(to: file)
        let missing = directory.appendingPathComponent("no-such-folder")
        // An audio file that does not exist: a check made after the analysis started would answer 65 instead.
        let common = ["analyze", directory.appendingPathComponent("absent.wav").path, "--no-store", "--quiet"]
        let refusals: [(arguments: [String], message: String)] = [
            (["--report", directory.path], "--report \(directory.path): is a folder; give a file name"),
            (
                ["--hypnogram", missing.appendingPathComponent("night.svg").path],
                "the folder \(missing.path) does not exist"
            ),
            (["--report", file.appendingPathComponent("night.html").path], "the folder \(file.path) does not exist"),
            (["--format", "csv", "--out-dir", file.path], "--out-dir \(file.path): is a file, not a folder"),
            (["--format", "csv", "--out-dir", file.appendingPathComponent("tables").path], "does not exist"),
        ]
        for (arguments, message) in refusals {
            let began = Date()
            let run = try runCommandLineTool(common + arguments, timeout: 30)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
            XCTAssertEqual(run.standardOutput, "")
            XCTAssertLessThan(Date().timeIntervalSince(began), 10)
        }

        // A new file in an existing folder, and a CSV folder to be created with its parents, are accepted.
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        let report = directory.appendingPathComponent("night.html")
        let tables = directory.appendingPathComponent("new/tables")
        let run = try runCommandLineTool(
            [
                "analyze", clip, "--no-store", "--quiet", "--format", "csv", "--out-dir", tables.path, "--report",
                report.path, "--storage", directory.appendingPathComponent("state").path,
            ], timeout: 60)
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tables.appendingPathComponent("epochs.csv").path))
    }
}

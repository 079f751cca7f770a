import Foundation
import TestSupport
import XCTest

/// `analyze --format csv --out-dir DIR`: one table per file, each with one header; without `--out-dir` the epochs
/// and events tables are printed as before.
final class CSVOutDirCommandTests: XCTestCase {
    func test_out_dir_writes_epochs_events_breathing_and_summary_each_with_one_header() throws {
        let directory = try makeTemporaryDirectory(self)
        let tables = directory.appendingPathComponent("tables")
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        let common = [
            "analyze", clip, "--start", "2026-12-01T23:00:00Z", "--no-store", "--quiet", "--format", "csv",
            "--storage", directory.appendingPathComponent("state").path,
        ]
        let written = try runCommandLineTool(common + ["-o", tables.path], timeout: 60)
        XCTAssertEqual(written.status, 0, written.standardError)
        XCTAssertEqual(written.standardOutput, "")

        var texts: [String: String] = [:]
        for (name, header) in [
            ("epochs", "epoch,start,end,stage,"), ("events", "type,start,end,probability,source"),
            ("breathing", "time,bpm,confidence"), ("summary", "session,start,end,time_zone,"),
        ] {
            let text = try String(contentsOf: tables.appendingPathComponent("\(name).csv"), encoding: .utf8)
            texts[name] = text
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            XCTAssertTrue(lines.first?.hasPrefix(header) ?? false, "\(name): \(text)")
            XCTAssertEqual(lines.filter { $0.hasPrefix(header) }.count, 1, "\(name) has one header")
            XCTAssertFalse(lines.contains(""), "\(name) has no empty line")
            let columns = lines.first?.split(separator: ",").count
            for line in lines {
                XCTAssertEqual(line.split(separator: ",", omittingEmptySubsequences: false).count, columns)
            }
        }
        XCTAssertEqual(texts["summary"]?.split(separator: "\n").count, 2, "the summary is one row")
        XCTAssertGreaterThan(texts["breathing"]?.split(separator: "\n").count ?? 0, 1, "breathing rates were measured")

        let printed = try runCommandLineTool(common, timeout: 60)
        XCTAssertEqual(printed.status, 0, printed.standardError)
        XCTAssertEqual(printed.standardOutput, (texts["epochs"] ?? "") + "\n" + (texts["events"] ?? "") + "\n")

        let wrongFormat = try runCommandLineTool(["analyze", clip, "--out-dir", tables.path])
        XCTAssertEqual(wrongFormat.status, 64)
    }
}

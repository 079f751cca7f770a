import Foundation
import TestSupport
import XCTest

/// `sleepanalysis evaluate events --band-limit 8k|4k|opus`: every clip is scored from its copy (the same clips, a
/// report for each copy), and an unknown value is a usage error naming the accepted ones.
final class EvaluateEventsBandLimitCommandTests: XCTestCase {
    func test_bandLimit_scoresEveryClipsCopy_andRejectsUnknownValues() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let manifest = directory.url.appendingPathComponent("MANIFEST.tsv")
        try "class\tfile\nbreathing\tclip_breathing_15bpm.ogg\nother\tclip_quiet_room.flac\n".write(
            to: manifest, atomically: true, encoding: .utf8)
        let base = ["evaluate", "events", "--manifest", manifest.path, "--root", FixturePaths.fixtures.path]
        for limit in ["8k", "4k", "opus"] {
            let run = try runCommandLineTool(base + ["--format", "json", "--band-limit", limit])
            XCTAssertEqual(run.status, 0, run.standardError)
            let report = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            XCTAssertEqual(report["clips"] as? Int, 2, limit)
        }
        let wrong = try runCommandLineTool(base + ["--band-limit", "mp3"])
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(["8k", "4k", "opus"].allSatisfy(wrong.standardError.contains), wrong.standardError)
    }
}

import Foundation
import TestSupport
import XCTest

/// `sleepanalysis features events --band-limit 8k|4k|opus`: the copies' features differ from the clip's own, and an
/// unknown value is a usage error naming the accepted ones.
final class FeaturesEventsBandLimitCommandTests: XCTestCase {
    func test_bandLimit_changesTheFeatures_andRejectsUnknownValues() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg")
        let list = directory.url.appendingPathComponent("list.txt")
        try (clip.path + "\n").write(to: list, atomically: true, encoding: .utf8)
        var features: [String: Data] = [:]
        for limit in ["none", "8k", "4k", "opus"] {
            let out = directory.url.appendingPathComponent(limit)
            let extra = limit == "none" ? [] : ["--band-limit", limit]
            let run = try runCommandLineTool(["features", "events", "--list", list.path, "--out", out.path] + extra)
            XCTAssertEqual(run.status, 0, run.standardError)
            features[limit] = try Data(contentsOf: out.appendingPathComponent("0.f32"))
        }
        XCTAssertEqual(features["8k"]?.count, features["none"]?.count)
        XCTAssertNotEqual(features["8k"], features["none"])
        XCTAssertNotEqual(features["4k"], features["none"])
        XCTAssertNotEqual(features["4k"], features["8k"])
        XCTAssertEqual(features["opus"]?.count, features["none"]?.count)
        XCTAssertNotEqual(features["opus"], features["none"])
        let wrong = try runCommandLineTool(
            ["features", "events", "--list", list.path, "--out", directory.url.path, "--band-limit", "2k"])
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(["8k", "4k", "opus"].allSatisfy(wrong.standardError.contains), wrong.standardError)
    }
}

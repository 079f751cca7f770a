import Foundation
import TestSupport
import XCTest

/// `analyze` saves every night in the default session store (the folder `history` and `export` read) unless
/// `--no-store`; `--store DIR` still chooses another.
final class DefaultStoreCommandTests: XCTestCase {
    private func environment(_ data: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = data.path
        return environment
    }

    private func analyze(_ extra: [String], data: URL, state: URL) throws -> String {
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_quiet_room.flac").path
        let output = try runCommandLineTool(
            ["analyze", clip, "--quiet", "-f", "json", "--storage", state.path] + extra,
            environment: environment(data), timeout: 60)
        XCTAssertEqual(output.status, 0, output.standardError)
        let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["sessionId"] as? String)
    }

    func test_analyze_saves_in_the_default_store_that_history_reads() throws {
        let directory = try makeTemporaryDirectory(self)
        let data = directory.appendingPathComponent("data")
        let sessionId = try analyze([], data: data, state: directory.appendingPathComponent("state"))
        let history = try runCommandLineTool(["history", "--format", "json"], environment: environment(data))
        XCTAssertEqual(history.status, 0, history.standardError)
        XCTAssertTrue(history.standardOutput.lowercased().contains(sessionId.lowercased()), history.standardOutput)
    }

    func test_no_store_saves_nothing_and_store_dir_overrides_the_default() throws {
        let directory = try makeTemporaryDirectory(self)
        let data = directory.appendingPathComponent("data")
        _ = try analyze(["--no-store"], data: data, state: directory.appendingPathComponent("state"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.path))

        let other = directory.appendingPathComponent("other-store")
        let sessionId = try analyze(["-s", other.path], data: data, state: directory.appendingPathComponent("state"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.path))
        let history = try runCommandLineTool(["history", "--store", other.path, "-f", "json"])
        XCTAssertTrue(history.standardOutput.lowercased().contains(sessionId.lowercased()), history.standardOutput)

        let both = try runCommandLineTool(["analyze", "x.wav", "--store", other.path, "--no-store"])
        XCTAssertEqual(both.status, 64)
        XCTAssertTrue(both.standardError.hasPrefix("Error: give --store DIR or --no-store"), both.standardError)
    }
}

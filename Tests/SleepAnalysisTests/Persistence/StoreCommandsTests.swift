import XCTest

@testable import SleepAnalysis

/// `sleepanalysis history` and `sleepanalysis export --healthkit` on a temporary store.
final class StoreCommandsTests: XCTestCase {
    private typealias Fixtures = SessionStoreFixtures

    /// A store with nights starting 2026-11-01T22:00Z, 2026-11-02T22:00Z and 2026-11-03T22:00Z.
    private func makeStore() throws -> (URL, [AnalysisResult]) {
        let directory = try makeTemporaryDirectory(self).appendingPathComponent("store")
        let store = try SessionStore(directory: directory)
        let nights = [22.0, 46, 70].map { Fixtures.night(startingHoursAfter: $0) }
        for night in nights { try store.save(night) }
        return (directory, nights)
    }

    func test_history_json_lists_nights_overlapping_the_range() throws {
        let (directory, nights) = try makeStore()
        let output = try runCommandLineTool([
            "history", "--store", directory.path, "--from", "2026-11-02T12:00:00Z", "--to", "2026-11-03T23:00:00Z",
            "--format", "json",
        ])
        XCTAssertEqual(output.status, 0, output.standardError)
        let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        let listed = try XCTUnwrap(object?["nights"] as? [[String: Any]])
        let ids = listed.compactMap { $0["sessionId"] as? String }
        XCTAssertEqual(ids, [nights[1], nights[2]].map(\.sessionId.uuidString))
        XCTAssertEqual(listed[0]["startTime"] as? String, "2026-11-02T22:00:00.000Z")
        XCTAssertEqual(listed[0]["timeZone"] as? String, "Asia/Tokyo")
        XCTAssertEqual(listed[0]["eventCount"] as? Int, 2)
        XCTAssertEqual(listed[0]["timeInBed"] as? Double, 360)
    }

    func test_history_text_shows_one_line_per_night_in_its_time_zone() throws {
        let (directory, nights) = try makeStore()
        let output = try runCommandLineTool(["history", "--store", directory.path])
        XCTAssertEqual(output.status, 0, output.standardError)
        let lines = output.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.count, 4)
        // 22:00 UTC is 07:00 the next day in Tokyo
        XCTAssertTrue(lines[1].hasPrefix("2026-11-02   07:00  07:06  0:06"), String(lines[1]))
        XCTAssertTrue(lines[1].hasSuffix(nights[0].sessionId.uuidString))
    }

    func test_history_day_range_includes_the_whole_to_day() throws {
        let (directory, nights) = try makeStore()
        let output = try runCommandLineTool(
            [
                "history", "--store", directory.path, "--from", "2026-11-02", "--to", "2026-11-02", "--format", "json",
            ], environment: ["TZ": "UTC", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertFalse(output.standardOutput.contains(nights[0].sessionId.uuidString))
        XCTAssertTrue(output.standardOutput.contains(nights[1].sessionId.uuidString))
        XCTAssertFalse(output.standardOutput.contains(nights[2].sessionId.uuidString))
    }

    func test_history_bad_date_and_missing_store_fail_with_messages() throws {
        let (directory, _) = try makeStore()
        let badDate = try runCommandLineTool(["history", "--store", directory.path, "--from", "yesterday"])
        XCTAssertEqual(badDate.status, 64)
        XCTAssertTrue(badDate.standardError.contains("ISO 8601"), badDate.standardError)
        let missing = try runCommandLineTool(["history", "--store", directory.appendingPathComponent("none").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.standardError.contains("no session store"), missing.standardError)
    }

    func test_history_uses_XDG_DATA_HOME_by_default() throws {
        let dataHome = try makeTemporaryDirectory(self)
        let store = try SessionStore(directory: dataHome.appendingPathComponent("sleepanalysis"))
        let night = Fixtures.night(startingHoursAfter: 22)
        try store.save(night)
        let output = try runCommandLineTool(
            ["history", "--format", "json"], environment: ["XDG_DATA_HOME": dataHome.path, "HOME": "/nonexistent"])
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertTrue(output.standardOutput.contains(night.sessionId.uuidString))
        XCTAssertEqual(
            SessionStore.defaultDirectory(environment: ["HOME": "/home/u"]).path, "/home/u/.local/share/sleepanalysis")
    }

    func test_export_healthkit_csv_for_one_session() throws {
        let (directory, nights) = try makeStore()
        let output = try runCommandLineTool([
            "export", "--healthkit", "--store", directory.path, "--session", nights[1].sessionId.uuidString,
            "--format", "csv",
        ])
        XCTAssertEqual(output.status, 0, output.standardError)
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, HealthKitExport.csvHeader)
        XCTAssertEqual(lines.dropFirst().map { $0.split(separator: ",")[1] }, ["0", "2", "3", "4", "5"])
        XCTAssertTrue(lines.dropFirst().allSatisfy { $0.hasPrefix(nights[1].sessionId.uuidString) })
    }

    func test_export_healthkit_json_for_all_nights_matches_the_library() throws {
        let (directory, nights) = try makeStore()
        let output = try runCommandLineTool(["export", "--healthkit", "--store", directory.path])
        XCTAssertEqual(output.status, 0, output.standardError)
        let expected = try HealthKitExport.json(nights.flatMap { HealthKitSleepSample.samples(for: $0) })
        XCTAssertEqual(output.standardOutput, String(decoding: expected, as: UTF8.self) + "\n")
    }

    func test_export_without_healthkit_or_with_unknown_session_fails() throws {
        let (directory, _) = try makeStore()
        let noKind = try runCommandLineTool(["export", "--store", directory.path])
        XCTAssertEqual(noKind.status, 64)
        XCTAssertTrue(noKind.standardError.contains("--healthkit"), noKind.standardError)
        let unknown = try runCommandLineTool(
            ["export", "--healthkit", "--store", directory.path, "--session", UUID().uuidString])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.standardError.contains("no session"), unknown.standardError)
    }

    func test_journalWriter_is_hidden_from_the_command_list() throws {
        let output = try runCommandLineTool(["--help"])
        XCTAssertEqual(output.status, 0)
        XCTAssertTrue(output.standardOutput.contains("history"))
        XCTAssertTrue(output.standardOutput.contains("export"))
        XCTAssertFalse(output.standardOutput.contains("__journal-writer"))
    }
}

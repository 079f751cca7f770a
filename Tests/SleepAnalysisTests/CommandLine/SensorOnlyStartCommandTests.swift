import Foundation
import TestSupport
import XCTest

/// `analyze - --accelerometer FILE` without `--start`: a night of sensor files alone, whose timestamps are absolute,
/// starts at its first reading (said in one line on standard error), not at the time the command runs.
final class SensorOnlyStartCommandTests: XCTestCase {
    /// The first reading of the written file.
    private static let firstReading = Date(timeIntervalSince1970: 1_796_164_200)  // 2026-12-01T22:30:00Z
    /// A formatter of ISO 8601 times with milliseconds, as the tool writes them.
    private static var iso8601: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }

    /// Writes three hours of a phone on a mattress (the bundled night's 30 minutes of readings six times over),
    /// 10 Hz, in g, each row's time in ISO 8601 UTC from `firstReading` on.
    private static func writeNight(to file: URL) throws {
        let fixture = try String(
            contentsOf: FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv"), encoding: .utf8)
        let rows = fixture.split(separator: "\n").filter { $0.first?.isNumber ?? false }.map {
            $0.split(separator: ",", maxSplits: 1)
        }
        let formatter = iso8601
        var text = "# units: g\ntimestamp,x,y,z\n"
        for repeat_ in 0..<6 {
            for row in rows where row.count == 2 {
                let seconds = Double(repeat_) * 1800 + (Double(row[0]) ?? 0)
                text += "\(formatter.string(from: firstReading.addingTimeInterval(seconds))),\(row[1])\n"
            }
        }
        try Data(text.utf8).write(to: file)
    }

    func test_a_sensor_only_night_with_absolute_times_starts_at_its_first_reading_and_says_so() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent("phone.csv")
        try Self.writeNight(to: file)
        let common = [
            "--accelerometer", file.path, "--format", "json", "--quiet", "--no-store", "--storage",
            directory.appendingPathComponent("state").path,
        ]

        let output = try runCommandLineTool(["analyze", "-"] + common, timeout: 120)
        XCTAssertEqual(output.status, 0, output.standardError)
        let notes = output.standardError.split(separator: "\n").filter { $0.contains("first sensor reading") }
        XCTAssertEqual(
            notes,
            [
                "sleepanalysis analyze: no --start: the night starts at the first sensor reading, "
                    + "2026-12-01T22:30:00.000Z (phone.csv)"
            ], output.standardError)
        let night = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let start = try XCTUnwrap(Self.iso8601.date(from: night["startTime"] as? String ?? ""), "\(night)")
        let end = try XCTUnwrap(Self.iso8601.date(from: night["endTime"] as? String ?? ""), "\(night)")
        XCTAssertEqual(start.timeIntervalSince(Self.firstReading), 0, accuracy: 1)
        XCTAssertEqual(end.timeIntervalSince(start), 3 * 3600, accuracy: 60)
        XCTAssertFalse((night["sleepStagePredictions"] as? [Any] ?? []).isEmpty, "the night was staged")

        // The same night with its start given: the same times, and nothing said about the start.
        let given = try runCommandLineTool(
            ["analyze", "-", "--start", "2026-12-01T22:30:00Z"] + common, timeout: 120)
        XCTAssertEqual(given.status, 0, given.standardError)
        XCTAssertFalse(given.standardError.contains("first sensor reading"), given.standardError)
        let givenNight = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(given.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(givenNight["startTime"] as? String, night["startTime"] as? String)
        XCTAssertEqual(givenNight["endTime"] as? String, night["endTime"] as? String)
    }
}

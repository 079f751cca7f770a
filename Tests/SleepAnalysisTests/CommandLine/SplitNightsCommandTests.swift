import Foundation
import TestSupport
import XCTest

/// `analyze - --split-nights`: a multi-day accelerometer file is cut into one night per day (its longest rest
/// period), each analysed, reported and stored on its own; a file without rest is a typed error.
final class SplitNightsCommandTests: XCTestCase {
    /// Where the synthetic file's relative timestamps count from.
    private static let start = "2026-12-01T20:00:00Z"
    private static let startDate = Date(timeIntervalSince1970: 1_796_155_200)

    func test_each_days_longest_rest_period_is_analysed_reported_and_stored_as_a_night() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent("week.csv")
        let truth = try Self.writeDays(to: file, days: 2, restRepeats: 2)
        let store = directory.appendingPathComponent("store")
        let report = directory.appendingPathComponent("nights.html")
        let output = try runCommandLineTool(
            [
                "analyze", "-", "--accelerometer", file.path, "--split-nights", "--start", Self.start, "--timezone",
                "UTC", "--format", "json", "--quiet", "--storage", directory.appendingPathComponent("state").path,
                "--store", store.path, "--report", report.path,
            ], timeout: 90)
        XCTAssertEqual(output.status, 0, output.standardError)

        // The nights as a NightsDocument, under `nights`, by date.
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let nights = try XCTUnwrap(document["nights"] as? [String: [String: Any]], output.standardOutput)
        XCTAssertEqual(try JSONSchemaValidator.errors(in: output.standardOutput, schema: "nights"), [])
        XCTAssertEqual(nights.keys.sorted(), ["2026-12-01", "2026-12-02"], output.standardError)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for (name, rest) in zip(nights.keys.sorted(), truth) {
            let night = try XCTUnwrap(nights[name])
            let start = try XCTUnwrap(formatter.date(from: night["startTime"] as? String ?? ""))
            let end = try XCTUnwrap(formatter.date(from: night["endTime"] as? String ?? ""))
            XCTAssertEqual(start.timeIntervalSince(rest.start), 0, accuracy: 120, "\(name) starts with the rest")
            XCTAssertEqual(end.timeIntervalSince(rest.end), 0, accuracy: 120, "\(name) ends with the rest")
            XCTAssertFalse((night["sleepStagePredictions"] as? [Any] ?? []).isEmpty, "\(name) was staged")
        }
        let html = try String(contentsOf: report, encoding: .utf8)
        XCTAssertTrue(html.contains("id=\"2026-12-01-hypnogram\"") && html.contains("id=\"2026-12-02-hypnogram\""))

        let history = try runCommandLineTool(["history", "--store", store.path, "--format", "json"])
        XCTAssertEqual(history.status, 0, history.standardError)
        for night in nights.values {
            XCTAssertTrue(history.standardOutput.contains(night["sessionId"] as? String ?? "?"), history.standardOutput)
        }
    }

    func test_a_file_without_a_rest_period_is_a_bad_input_error_and_audio_a_usage_error() throws {
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent("restless.csv")
        var generator = SplitMix64(seed: 7)
        var text = "# units: g\ntimestamp,x,y,z\n"
        Self.appendActivity(to: &text, from: 0, seconds: 2 * 3600, &generator)
        try Data(text.utf8).write(to: file)
        let common = ["--accelerometer", file.path, "--split-nights", "--start", Self.start, "--no-store", "--quiet"]
        let restless = try runCommandLineTool(["analyze", "-"] + common)
        XCTAssertEqual(restless.status, 65, restless.standardError)
        XCTAssertTrue(restless.standardError.contains("no rest period of 30 minutes or more"), restless.standardError)

        let audio = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        let withAudio = try runCommandLineTool(["analyze", audio] + common)
        XCTAssertEqual(withAudio.status, 64, withAudio.standardError)
    }

    /// Writes `days` evenings and nights as a wearable logging only from evening to morning records them: 40
    /// minutes of daytime activity, the bundled night's readings `restRepeats` times over (30 minutes each: a
    /// phone lying on a mattress, breathing micro-motion and four movements), 20 minutes of morning activity;
    /// nothing logged until the next evening. 10 Hz, g, seconds from `start`.
    ///
    /// - Returns: Each day's rest period.
    private static func writeDays(to file: URL, days: Int, restRepeats: Int) throws -> [DateInterval] {
        let fixture = try String(
            contentsOf: FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv"), encoding: .utf8)
        let night = fixture.split(separator: "\n").filter { $0.first?.isNumber ?? false }.map {
            $0.split(separator: ",", maxSplits: 1)
        }
        var generator = SplitMix64(seed: 28)
        var text = "# units: g\ntimestamp,x,y,z\n"
        var rests: [DateInterval] = []
        for day in 0..<days {
            let evening = Double(day) * 86_400
            appendActivity(to: &text, from: evening, seconds: 2400, &generator)
            let restStart = evening + 2400
            for repeat_ in 0..<restRepeats {
                let offset = restStart + Double(repeat_) * 1800
                for row in night where row.count == 2 {
                    text += "\(offset + (Double(row[0]) ?? 0)),\(row[1])\n"
                }
            }
            let restEnd = restStart + Double(restRepeats) * 1800
            rests.append(
                DateInterval(
                    start: startDate.addingTimeInterval(restStart), end: startDate.addingTimeInterval(restEnd)))
            appendActivity(to: &text, from: restEnd, seconds: 1200, &generator)
        }
        try Data(text.utf8).write(to: file)
        return rests
    }

    /// Daytime activity at 10 Hz: a device turning about (its orientation a random walk) while bouncing at a
    /// walking cadence of 1.8 steps per second (±0.15 g), with 0.02 g sensor noise.
    private static func appendActivity(
        to text: inout String, from start: Double, seconds: Double, _ generator: inout SplitMix64
    ) {
        var pitch = 0.3
        var roll = 0.2
        for index in 0..<Int(seconds * 10) {
            let time = start + Double(index) / 10
            pitch += 0.05 * Double(generator.nextSigned())
            roll += 0.05 * Double(generator.nextSigned())
            let bounce = 1 + 0.15 * sin(2 * .pi * 1.8 * time)
            let x = bounce * sin(roll) * cos(pitch) + 0.02 * Double(generator.nextSigned())
            let y = bounce * sin(pitch) + 0.02 * Double(generator.nextSigned())
            let z = bounce * cos(roll) * cos(pitch) + 0.02 * Double(generator.nextSigned())
            text += "\(time),\(rounded(x)),\(rounded(y)),\(rounded(z))\n"
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 100_000).rounded() / 100_000 }
}

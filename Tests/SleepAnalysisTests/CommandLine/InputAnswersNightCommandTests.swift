import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The probe cases of "No silent wrong night" on the command line: valid input accepted, rows that are not one night
/// and audio the analysis cannot take refused with exit 65 and nothing stored. Each one was accepted wrongly or
/// refused wrongly before.
final class InputAnswersNightCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "input-answers-night-cli")
    }

    override func tearDown() {
        directory.remove()
        super.tearDown()
    }

    private var store: String { directory.url.appendingPathComponent("store").path }

    private func analyze(_ arguments: [String]) throws -> ToolOutput {
        try runCommandLineTool(
            ["analyze"] + arguments + [
                "--storage", directory.url.appendingPathComponent("state").path, "--store", store, "--quiet",
            ],
            timeout: 60)
    }

    /// The session ids `history` lists from the store.
    private func storedNights() throws -> Int {
        let history = try runCommandLineTool(["history", "--store", store, "--format", "json"])
        return history.standardOutput.components(separatedBy: "\"sessionId\"").count - 1
    }

    func test_breathing_readsAnISO8601Accelerometer_andTakesAStart() throws {
        let csv = try String(
            contentsOf: FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm_accelerometer.csv"),
            encoding: .utf8)
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-12-01T23:00:00Z"))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let rows = csv.split(separator: "\n").map { line -> String in
            guard let first = line.first, first.isNumber else { return String(line) }
            let fields = line.split(separator: ",", maxSplits: 1)
            let time = start.addingTimeInterval(Double(fields[0])!)
            return formatter.string(from: time) + "," + fields[1]
        }
        let iso = directory.url.appendingPathComponent("iso.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: iso, atomically: true, encoding: .utf8)

        let output = try runCommandLineTool(["breathing", "--accelerometer", iso.path, "--format", "json"])
        XCTAssertEqual(output.status, 0, output.standardError)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(object["medianBpm"] as? Double), 15, accuracy: 1.5)
        XCTAssertTrue(output.standardError.contains("no --start"), output.standardError)

        let relative = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm_accelerometer.csv")
        let started = try runCommandLineTool([
            "breathing", "--accelerometer", relative.path, "--start", "2026-12-01T23:00:00Z", "--format", "json",
        ])
        XCTAssertEqual(started.status, 0, started.standardError)
    }

    func test_sensorRowsAMonthApart_exit65_andNoNightWithAScoreIsPrinted() throws {
        var rows = (0..<600).map { String(format: "%.1f,0.01,0.02,1.0", Double($0) / 10) }
        rows += (0..<600).map { String(format: "%.1f,0.01,0.02,1.0", 30 * 86_400 + Double($0) / 10) }
        let csv = directory.url.appendingPathComponent("month.csv")
        try ("timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n").write(
            to: csv, atomically: true, encoding: .utf8)
        let output = try analyze(["-", "--accelerometer", csv.path, "--start", "2026-12-01T23:00:00Z", "-f", "json"])
        XCTAssertEqual(output.status, 65, output.standardError)
        XCTAssertTrue(output.standardError.contains("month.csv line 602: not one night"), output.standardError)
        XCTAssertFalse(output.standardOutput.contains("\"score\""), output.standardOutput)
    }

    func test_audioAt2kHz_exit65_beforeAnythingIsStored() throws {
        let url = directory.url.appendingPathComponent("two-khz.wav")
        let writer = try AudioFileWriter(url: url, sampleRate: 2_000, channelCount: 1, format: .wav16)
        try writer.write((0..<60_000).map { Float(0.05 * sin(Double($0) * 0.3)) })
        try writer.close()
        let output = try analyze([url.path, "--start", "2026-12-01T23:00:00Z"])
        XCTAssertEqual(output.status, 65, output.standardError)
        XCTAssertTrue(output.standardError.contains("2000 Hz is outside the 4 kHz ... 384 kHz"), output.standardError)
        XCTAssertEqual(try storedNights(), 0)
    }

    func test_aFLACOfUnknownLength_isAnalysedWhole_andWithoutStartTheToolSaysWhereTheNightStarts() throws {
        let url = directory.url.appendingPathComponent("streamed.flac")
        let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: 1, format: .flac16)
        try writer.write((0..<16_000 * 60).map { Float(0.05 * sin(Double($0) * 0.3)) })
        try writer.close()
        var bytes = try Data(contentsOf: url)
        var word = bytes[18..<26].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        word &= ~UInt64(0xF_FFFF_FFFF)
        for index in 0..<8 { bytes[18 + index] = UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64(index))) }
        try bytes.write(to: url)

        let output = try analyze([url.path, "-f", "json"])
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertTrue(output.standardError.contains("streamed.flac does not say how long it is"), output.standardError)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let start = try XCTUnwrap(formatter.date(from: try XCTUnwrap(object["startTime"] as? String)))
        let end = try XCTUnwrap(formatter.date(from: try XCTUnwrap(object["endTime"] as? String)))
        XCTAssertEqual(end.timeIntervalSince(start), 60, accuracy: 0.1)
    }
}

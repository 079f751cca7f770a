import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The command line answers bad input within seconds with exit status 65 and a message naming the file, and
/// reports what lowered a result: each case here hung, trapped or was silent before.
final class InputAnswersCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "input-answers-cli")
    }

    override func tearDown() {
        directory.remove()
        super.tearDown()
    }

    private func analyze(_ arguments: [String]) throws -> ToolOutput {
        try runCommandLineTool(
            ["analyze"] + arguments + ["--storage", directory.url.appendingPathComponent("state").path, "--quiet"],
            timeout: 30)
    }

    private func file(_ name: String, _ contents: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func tone(_ name: String, seconds: Int, rate: Int) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        let writer = try AudioFileWriter(url: url, sampleRate: rate, channelCount: 1, format: .wavFloat)
        try writer.write((0..<seconds * rate).map { Float(0.05 * sin(Double($0) * 0.2)) })
        try writer.close()
        return url
    }

    func test_a_fifo_is_refused_at_once_with_65() throws {
        let fifo = directory.url.appendingPathComponent("night.wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let output = try analyze([fifo.path])
        XCTAssertEqual(output.status, 65)
        XCTAssertTrue(output.standardError.contains("FIFO"), output.standardError)
    }

    func test_a_far_future_row_ends_with_65_naming_its_line() throws {
        let audio = try tone("night.wav", seconds: 5, rate: 16_000)
        let csv = try file("accelerometer.csv", "timestamp,x,y,z\n0.0,0,0,1\n4002-01-01T00:00:00Z,0,0,1\n")
        let output = try analyze([audio.path, "--accelerometer", csv.path, "--start", "2026-12-01T23:00:00Z"])
        XCTAssertEqual(output.status, 65)
        XCTAssertTrue(output.standardError.contains("accelerometer.csv line 3"), output.standardError)
    }

    func test_an_empty_audio_file_is_65_not_an_empty_night() throws {
        let audio = try tone("empty.wav", seconds: 0, rate: 16_000)
        let output = try analyze([audio.path, "--format", "json"])
        XCTAssertEqual(output.status, 65)
        XCTAssertEqual(output.standardOutput, "")
        XCTAssertTrue(output.standardError.contains("0 frames"), output.standardError)
    }

    func test_a_warning_reaches_the_json_and_the_text_report() throws {
        let audio = try tone("phone.wav", seconds: 40, rate: 8_000)
        let json = try analyze([audio.path, "--format", "json"])
        XCTAssertEqual(json.status, 0, json.standardError)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let warnings = try XCTUnwrap(object["warnings"] as? [[String: Any]])
        XCTAssertEqual(warnings.first?["kind"] as? String, "lowSampleRate")
        let text = try analyze([audio.path])
        XCTAssertTrue(text.standardOutput.contains("Warning           the audio's sample rate is 8000 Hz"))
    }

    func test_spl_of_audio_with_nan_samples_is_finite_json() throws {
        let url = try tone("nan.wav", seconds: 2, rate: 16_000)
        var bytes = try Data(contentsOf: url)
        let data = try XCTUnwrap(bytes.range(of: Data("data".utf8)))
        withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { raw in
            bytes.replaceSubrange(data.upperBound + 4 + 400..<data.upperBound + 8 + 400, with: raw)
        }
        try bytes.write(to: url)
        let output = try runCommandLineTool(["spl", url.path, "--format", "json"])
        XCTAssertEqual(output.status, 0, output.standardError)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(object["repairedSampleCount"] as? Int, 1)
        XCTAssertNotNil(object["leq"] as? Double)
    }
}

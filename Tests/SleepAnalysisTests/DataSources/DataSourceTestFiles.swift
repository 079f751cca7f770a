import Foundation
import XCTest

@testable import SleepAnalysis

/// A temporary directory for one test's files, removed when the test ends.
final class DataSourceTestFiles {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sleepanalysis-datasource-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes `text` to a file named `name` and returns its URL.
    func text(_ name: String, _ text: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// A URL in the directory, for a file not yet written.
    func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Writes a deterministic test signal whose values are exact 16-bit steps (so WAV16 and FLAC round-trip
    /// exactly) and returns it interleaved.
    @discardableResult
    func audio(
        _ name: String, sampleRate: Int, channelCount: Int, frames: Int,
        format: AudioFileWriter.Format = .wav16
    ) throws -> (url: URL, samples: [Float]) {
        let url = url(name)
        let samples = Self.signal(frames: frames, channelCount: channelCount)
        let writer = try AudioFileWriter(url: url, sampleRate: sampleRate, channelCount: channelCount, format: format)
        try writer.write(samples)
        try writer.close()
        return (url, samples)
    }

    /// Interleaved frames whose channels differ, each value `k / 32768` for an integer `k`.
    static func signal(frames: Int, channelCount: Int) -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(frames * channelCount)
        for frame in 0..<frames {
            for channel in 0..<channelCount {
                let step = (frame * 37 + channel * 1_001) % 4_001 - 2_000
                samples.append(Float(step * 8) / 32_768)
            }
        }
        return samples
    }

    /// Cuts the file at `url` to `fraction` of its length.
    func truncate(_ url: URL, to fraction: Double) throws {
        let data = try Data(contentsOf: url)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
    }
}

/// Asserts that `body` throws a `CSVError` at `line` whose reason matches `matches`.
func XCTAssertCSVError(
    line: Int, _ body: () throws -> Void, file: StaticString = #filePath, lineNumber: UInt = #line,
    matches: (CSVError.Reason) -> Bool
) {
    do {
        try body()
        XCTFail("expected a CSVError at line \(line)", file: file, line: lineNumber)
    } catch let error as CSVError {
        XCTAssertEqual(error.line, line, "\(error)", file: file, line: lineNumber)
        XCTAssertTrue(matches(error.reason), "unexpected reason: \(error)", file: file, line: lineNumber)
        XCTAssertTrue(error.sdkError.description.contains("line \(line)") || line == 0, file: file, line: lineNumber)
    } catch {
        XCTFail("expected a CSVError, got \(error)", file: file, line: lineNumber)
    }
}

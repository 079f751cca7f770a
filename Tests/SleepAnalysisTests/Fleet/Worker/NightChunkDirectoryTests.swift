import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// A directory of numbered chunks as a worker's input: assembled in sequence order into one file, refused with
/// `invalidInput` when a chunk is missing, doubled or of another format.
final class NightChunkDirectoryTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "night-chunks") }
    override func tearDown() { directory.remove() }

    private func writeAudio(_ name: String, samples: [Float], rate: Int = 16_000, in folder: URL) throws {
        let writer = try AudioFileWriter(
            url: folder.appendingPathComponent(name), sampleRate: rate, channelCount: 1,
            format: name.hasSuffix("flac") ? .flac16 : .wav16)
        try writer.write(samples)
        try writer.close()
    }

    private func folder(_ name: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func test_audioChunks_areJoinedInSequenceOrder_whateverTheirFormat() throws {
        let chunks = try folder("audio")
        let parts: [[Float]] = (0..<3).map { part in (0..<1_600).map { Float(part * 1_600 + $0) / 65_536 } }
        try writeAudio("00000002.wav", samples: parts[2], in: chunks)
        try writeAudio("00000000.flac", samples: parts[0], in: chunks)
        try writeAudio("00000001.wav", samples: parts[1], in: chunks)
        try Data("ignored".utf8).write(to: chunks.appendingPathComponent(".incoming-1"))

        let night = try NightChunkDirectory.assemble(chunks, role: "audio", into: try folder("run"))
        let reader = try AudioFileReader(url: night)
        XCTAssertEqual(reader.sampleRate, 16_000)
        var samples: [Float] = []
        while let block = try reader.read(maxFrames: 1_000) { samples += block }
        let expected = parts.flatMap { $0 }.map { ($0 * 32_768).rounded() / 32_768 }
        XCTAssertEqual(samples, expected)
    }

    func test_csvChunks_keepTheFirstHeader_andDropTheOthers() throws {
        let chunks = try folder("accelerometer")
        try "# units: g\ntimestamp,x,y,z\n0,0,0,1\n1,0,0,1\n".write(
            to: chunks.appendingPathComponent("00000000.csv"), atomically: true, encoding: .utf8)
        try "timestamp,x,y,z\n2,0,1,0\n3,0,1,0".write(
            to: chunks.appendingPathComponent("00000001.csv"), atomically: true, encoding: .utf8)
        let night = try NightChunkDirectory.assemble(chunks, role: "accelerometer", into: try folder("run"))
        XCTAssertEqual(
            try String(contentsOf: night, encoding: .utf8),
            "# units: g\ntimestamp,x,y,z\n0,0,0,1\n1,0,0,1\n2,0,1,0\n3,0,1,0\n")
    }

    func test_aGap_aDoubledNumber_anEmptyDirectory_andMixedRates_areInvalidInput() throws {
        let samples = [Float](repeating: 0.1, count: 1_600)
        let gap = try folder("gap")
        try writeAudio("00000000.wav", samples: samples, in: gap)
        try writeAudio("00000002.wav", samples: samples, in: gap)
        let doubled = try folder("doubled")
        try writeAudio("00000000.wav", samples: samples, in: doubled)
        try writeAudio("00000000.flac", samples: samples, in: doubled)
        let rates = try folder("rates")
        try writeAudio("00000000.wav", samples: samples, in: rates)
        try writeAudio("00000001.wav", samples: samples, rate: 8_000, in: rates)
        let empty = try folder("empty")
        for (chunks, words) in [
            (gap, "chunk 1 is missing"), (doubled, "two chunks"), (rates, "8000 Hz"), (empty, "no chunk"),
        ] {
            XCTAssertThrowsError(try NightChunkDirectory.assemble(chunks, role: "audio", into: try folder("run"))) {
                guard case SleepCycleSdkError.invalidInput(let reason) = $0 else { return XCTFail("\($0)") }
                let message = reason.message
                XCTAssertTrue(message.contains(words), message)
            }
        }
        XCTAssertEqual(NightChunkDirectory.sequence(ofFileName: "00000012.flac"), 12)
        XCTAssertNil(NightChunkDirectory.sequence(ofFileName: "0000012.flac"))
        XCTAssertNil(NightChunkDirectory.sequence(ofFileName: "0000001x.wav"))
        XCTAssertNil(NightChunkDirectory.sequence(ofFileName: "00000001"))
        XCTAssertEqual(NightChunkDirectory.fileName(sequence: 7, fileExtension: "ogg"), "00000007.ogg")
    }
}

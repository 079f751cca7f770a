import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `AudioFileWriter` in Ogg Opus: the file is Opus of one stream (the package's own decoder opens it), its size
/// follows the bit rate asked for, and a bit rate libsndfile cannot reach is refused before a file is made.
final class AudioFileOpusWriterTests: XCTestCase {
    /// Eight seconds of the bundled night (a real bedroom recording, 16 kHz).
    private func recording() throws -> [Float] {
        let night = try AudioFileReader(url: FixturePaths.fixtures.appendingPathComponent("night_short.ogg"))
        return try XCTUnwrap(try night.readMono(maxFrames: 128_000))
    }

    /// Writes `samples` as Ogg Opus at `bitsPerSecond` and returns the file's bytes.
    private func opusFile(_ samples: [Float], bitsPerSecond: Int, in directory: TemporaryDirectory) throws -> Data {
        let url = directory.url.appendingPathComponent("\(bitsPerSecond).opus")
        let writer = try AudioFileWriter(
            url: url, sampleRate: 16_000, channelCount: 1, format: .oggOpus(bitsPerSecond: bitsPerSecond))
        try writer.write(samples)
        try writer.close()
        XCTAssertNotNil(try OggOpusDecoder.open(url), "the package's Opus decoder takes the file")
        return try Data(contentsOf: url)
    }

    func test_opus_isOggOpus_andItsSizeFollowsTheBitRate() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let samples = try recording()
        let seconds = Double(samples.count) / 16_000
        var kilobitsPerSecond: [Int: Double] = [:]
        for target in [12_000, 32_000] {
            let bytes = try opusFile(samples, bitsPerSecond: target, in: directory)
            XCTAssertEqual(Array(bytes.prefix(4)), Array("OggS".utf8))
            XCTAssertEqual(Array(bytes[28..<36]), Array("OpusHead".utf8))
            kilobitsPerSecond[target] = Double(bytes.count * 8) / seconds / 1_000
        }
        // Variable bit rate around the target, plus the Ogg pages and headers: within 25 % of it.
        XCTAssertEqual(try XCTUnwrap(kilobitsPerSecond[12_000]), 12, accuracy: 3, "\(kilobitsPerSecond)")
        XCTAssertEqual(try XCTUnwrap(kilobitsPerSecond[32_000]), 32, accuracy: 8, "\(kilobitsPerSecond)")
    }

    func test_opus_refusesABitRateOutsideLibsndfilesRange_withoutMakingAFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for bitsPerSecond in [5_999, 256_001] {
            let url = directory.url.appendingPathComponent("\(bitsPerSecond).opus")
            XCTAssertThrowsError(
                try AudioFileWriter(
                    url: url, sampleRate: 16_000, channelCount: 1, format: .oggOpus(bitsPerSecond: bitsPerSecond))
            ) { error in
                guard case SleepCycleSdkError.invalidConfiguration = error else { return XCTFail("\(error)") }
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        }
    }
}

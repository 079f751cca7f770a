import Foundation
import SleepAnalysisEvaluation
import XCTest

@testable import SleepAnalysis

/// The benchmark's synthetic night file: mono or stereo, at any rate.
final class SyntheticNightFileTests: XCTestCase {
    func test_stereoNight_hasTheSameSoundsInBothChannels_overNoiseOfTheirOwn() throws {
        // Given a two-second stereo night at 44.1 kHz
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("synthetic-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        try SleepAnalysisEvaluation.SyntheticNight.write(
            to: url, duration: 2, sampleRate: 44_100, format: .wav, channelCount: 2)
        // When it is read back
        let reader = try AudioFileReader(url: url)
        let samples = try XCTUnwrap(try reader.read(maxFrames: 88_200))
        // Then it has two channels, two seconds long, that differ (their noise) but share the snore at the start
        XCTAssertEqual(reader.channelCount, 2)
        XCTAssertEqual(reader.sampleRate, 44_100)
        XCTAssertEqual(samples.count, 2 * 88_200)
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        XCTAssertNotEqual(left, right)
        let product = zip(left, right).map { Double($0 * $1) }.reduce(0, +)
        let energy = left.map { Double($0 * $0) }.reduce(0, +)
        XCTAssertGreaterThan(product / energy, 0.9)
    }

    func test_otherChannelCounts_areRefused() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("synthetic-\(UUID().uuidString).wav")
        XCTAssertThrowsError(
            try SleepAnalysisEvaluation.SyntheticNight.write(
                to: url, duration: 1, sampleRate: 16_000, format: .wav, channelCount: 3))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
    }
}

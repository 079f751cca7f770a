import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Listener batches cover every analysed sample exactly once, in order, at any input rate.
final class SDKBatchCoverageTests: SDKTestCase {
    private func assertCoverage(
        sampleRate: Int, channels: Int, seconds: Double, file: StaticString = #filePath,
        line: UInt = #line
    ) async throws {
        try await initializeSDK(features: .none)
        let audio = try writeNoiseFile(seconds: seconds, sampleRate: sampleRate, channels: channels)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
        let listener = RecordingAudioListener()
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(), using: source, eventListeners: [listener])
        await source.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis()

        let batches = listener.batches
        XCTAssertFalse(batches.isEmpty, file: file, line: line)
        XCTAssertEqual(batches.first?.startTime, start, file: file, line: line)
        for (previous, next) in zip(batches, batches.dropFirst()) {
            XCTAssertEqual(
                next.startTime.timeIntervalSince(previous.endTime), 0, accuracy: 1e-6, "gap or overlap", file: file,
                line: line)
        }
        for batch in batches {
            XCTAssertEqual(batch.sampleRate, 16_000, file: file, line: line)
            XCTAssertEqual(
                batch.endTime.timeIntervalSince(batch.startTime), Double(batch.sampleCount) / 16_000, accuracy: 1e-6,
                file: file, line: line)
            XCTAssertEqual(batch.dbSplCount, batch.sampleCount / 160, file: file, line: line)
            XCTAssertEqual(Set(batch.probabilities.keys), Set(EventType.allCases), file: file, line: line)
        }
        let total = batches.map(\.sampleCount).reduce(0, +)
        XCTAssertEqual(
            Double(total), seconds * 16_000, accuracy: 2, "every input sample analysed once", file: file,
            line: line)
        XCTAssertEqual(result.startTime, start, file: file, line: line)
        XCTAssertEqual(result.endTime.timeIntervalSince(start), seconds, accuracy: 0.01, file: file, line: line)
        await SleepCycleSdk.deinitialize()
    }

    func test_batches_cover_every_sample_once_at_16kHz_mono() async throws {
        try await assertCoverage(sampleRate: 16_000, channels: 1, seconds: 3.5)
    }

    func test_batches_cover_every_sample_once_at_44_1kHz_stereo() async throws {
        try await assertCoverage(sampleRate: 44_100, channels: 2, seconds: 2.75)
    }

    func test_batches_cover_every_sample_once_at_48kHz_mono() async throws {
        try await assertCoverage(sampleRate: 48_000, channels: 1, seconds: 4.2)
    }

    func test_batches_cover_every_sample_once_at_8kHz_mono() async throws {
        try await assertCoverage(sampleRate: 8_000, channels: 1, seconds: 3.01)
    }
}

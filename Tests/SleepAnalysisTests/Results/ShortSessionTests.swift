import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// A session shorter than an epoch, or ending inside one, has no stage that outlasts it.
final class ShortSessionTests: SDKTestCase {
    func test_a_20_second_clip_has_no_stage_past_its_end() async throws {
        try await initializeSDK(features: .all)
        let clip = try writeNoiseFile(seconds: 20, sampleRate: 16_000)
        let start = Date(timeIntervalSince1970: 1_796_400_000)
        let source = SleepCycleSdk.createFileDataSource(audio: clip, accelerometer: nil, startTime: start)
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
        await source.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis()

        XCTAssertEqual(result.endTime.timeIntervalSince(start), 20, accuracy: 0.05)
        XCTAssertFalse(result.sleepStagePredictions.isEmpty, "the half-covered epoch is staged")
        for interval in result.sleepStageIntervals + result.realTimeSleepStageIntervals {
            XCTAssertLessThanOrEqual(interval.interval.end, result.endTime)
            XCTAssertGreaterThanOrEqual(interval.interval.start, result.startTime)
        }
        let statistics = try XCTUnwrap(result.statistics)
        let staged = statistics.sleepStageDurations?.values.reduce(0, +) ?? 0
        XCTAssertLessThanOrEqual(staged, (statistics.timeInBed ?? 0) + 1e-9)
    }
}

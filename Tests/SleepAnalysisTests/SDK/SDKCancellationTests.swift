import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The seed's start / wait / stop through `SleepCycleSdk`, in a task that is cancelled mid-night: the task ends
/// with `CancellationError`, not with an empty night, and the night stays resumable.
final class SDKCancellationTests: SDKTestCase {
    func test_seedsStartWaitStop_cancelledMidNight_throwsCancellationError_andTheNightStaysResumable() async throws {
        // Given the seed's three calls in a task, on ten minutes replayed in real time
        try await initializeSDK(features: .all)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let night = SleepCycleSdk.createFileDataSource(
            audio: try writeNoiseFile(seconds: 600, sampleRate: 16_000), accelerometer: nil, startTime: start,
            pace: .realTime)
        let threadsBefore = LibraryThreadCounts.now
        let analysis = Task {
            try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: night)
            await night.waitUntilFinished()
            return try await SleepCycleSdk.stopAnalysis()
        }
        let deadline = Date().addingTimeInterval(5)
        while await SleepCycleSdk.currentState != .running, Date() < deadline {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        XCTAssertFalse(LibraryThreadCounts.now.isAtMost(threadsBefore), "the night's threads should run")

        // When the task is cancelled
        let cancelled = Date()
        analysis.cancel()
        let outcome = await analysis.result

        // Then it throws CancellationError within a second, the replay and the pipeline have stopped
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 1)
        switch outcome {
        case .success(let result):
            XCTFail("the cancelled night returned \(result.endTime.timeIntervalSince(result.startTime)) s")
        case .failure(let error):
            XCTAssertTrue(error is CancellationError, "expected CancellationError, got \(error)")
        }
        let after = await LibraryThreadCounts.waitUntil(atMost: threadsBefore, timeout: 1)
        XCTAssertTrue(after.isAtMost(threadsBefore), "still running after the cancellation: \(after)")
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .initialized)
        let resumable = await SleepCycleSdk.isResumePossible()
        XCTAssertTrue(resumable, "the cancelled night should be resumable, not lost and not stored")
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Waiting for a source honours task cancellation: the wait ends, the source runs on until it is stopped.
final class WaitCancellationTests: XCTestCase {
    func test_cancellingTheWait_endsItPromptly_andLeavesTheReplayRunning() async throws {
        let storage = try TemporaryDirectory(prefix: "wait-cancel")
        defer { storage.remove() }
        let night = try AnalyzerNights.write(index: 0, into: storage.url)
        // Real-time pace: the 4-minute night would take 4 minutes to replay.
        let source = FileDataSource(
            audio: night, accelerometer: nil, heartRate: nil, activityCounts: nil, startTime: Date(), pace: .realTime)
        let sink = RecordingSensorSink()
        try source.start(delivering: sink)

        let started = Date()
        let waiter = Task { await source.waitUntilFinished() }
        try await Task.sleep(nanoseconds: 200_000_000)
        waiter.cancel()
        await waiter.value
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "the cancelled wait did not end promptly")
        XCTAssertTrue(sink.finishCalls.isEmpty, "cancelling the wait must not stop the replay")

        source.stop()
        await source.waitUntilFinished()
        XCTAssertEqual(sink.finishCalls.count, 1, "the replay finished once, after stop()")
    }

    func test_aWaitStartedInACancelledTask_returnsAtOnce() async throws {
        let storage = try TemporaryDirectory(prefix: "wait-cancelled")
        defer { storage.remove() }
        let night = try AnalyzerNights.write(index: 0, into: storage.url)
        let source = FileDataSource(
            audio: night, accelerometer: nil, heartRate: nil, activityCounts: nil, startTime: Date(), pace: .realTime)
        try source.start(delivering: RecordingSensorSink())
        let started = Date()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await source.waitUntilFinished()
        }
        await waiter.value
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "a cancelled task's wait did not return at once")
        source.stop()
        await source.waitUntilFinished()
    }
}

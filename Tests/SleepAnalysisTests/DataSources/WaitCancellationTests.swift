import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// No wait outlives its source: cancelling the waiting task stops the source, and a source that is not running
/// (never started, or its start failed) is waited for not at all.
final class WaitCancellationTests: XCTestCase {
    func test_cancellingTheWait_stopsTheReplay_andEndsWithinASecond() async throws {
        let storage = try TemporaryDirectory(prefix: "wait-cancel")
        defer { storage.remove() }
        let night = try AnalyzerNights.write(index: 0, into: storage.url)
        // Given a replay at real time: the 4-minute night would take 4 minutes
        let source = FileDataSource(
            audio: night, accelerometer: nil, heartRate: nil, activityCounts: nil, startTime: Date(), pace: .realTime)
        let sink = RecordingSensorSink()
        let threadsBefore = LibraryThreadCounts.now
        try source.start(delivering: sink)

        // When the task waiting for it is cancelled
        let waiter = Task { await source.waitUntilFinished() }
        try await Task.sleep(nanoseconds: 200_000_000)
        let cancelled = Date()
        waiter.cancel()
        await waiter.value

        // Then the wait ends within a second, the replay has been stopped (the sink finished once, without an
        // error) and its thread is gone
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 1, "the cancelled wait did not end promptly")
        XCTAssertEqual(sink.finishCalls.count, 1, "cancelling the wait must stop the replay")
        XCTAssertNil(sink.finishCalls.first ?? nil)
        let after = await LibraryThreadCounts.waitUntil(atMost: threadsBefore, timeout: 1)
        XCTAssertTrue(after.isAtMost(threadsBefore), "the replay's thread still runs: \(after)")
    }

    func test_aWaitStartedInACancelledTask_stopsTheReplay_andReturnsAtOnce() async throws {
        let storage = try TemporaryDirectory(prefix: "wait-cancelled")
        defer { storage.remove() }
        let night = try AnalyzerNights.write(index: 0, into: storage.url)
        let source = FileDataSource(
            audio: night, accelerometer: nil, heartRate: nil, activityCounts: nil, startTime: Date(), pace: .realTime)
        let sink = RecordingSensorSink()
        try source.start(delivering: sink)
        let started = Date()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await source.waitUntilFinished()
        }
        await waiter.value
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "a cancelled task's wait did not return at once")
        XCTAssertEqual(sink.finishCalls.count, 1, "the wait of a cancelled task must stop the replay")
    }

    func test_waitUntilFinished_onSourcesNeverStarted_returnsWithinASecond() async throws {
        let storage = try TemporaryDirectory(prefix: "wait-unstarted")
        defer { storage.remove() }
        let night = try AnalyzerNights.write(index: 0, into: storage.url)
        let sources: [any DataSource] = [
            FileDataSource(audio: night, accelerometer: nil, startTime: Date(), pace: .realTime),
            LiveDataSource(device: "null"),
        ]
        for source in sources {
            let waited = try await secondsWaited(for: source)
            XCTAssertLessThan(waited, 1, "waiting for a source never started: \(type(of: source))")
        }
    }

    func test_waitUntilFinished_afterTheAnalysisFailedToStart_returnsWithinASecond() async throws {
        let storage = try TemporaryDirectory(prefix: "wait-failed-start")
        defer { storage.remove() }
        let licence = try TestLicenses.make()
        let analyzer = SleepAnalyzer(name: "wait-failed-start")
        try await analyzer.initialize(
            logLevel: .error, apiKey: licence.apiKey, storageDirectory: storage.url.appendingPathComponent("state"),
            trustedIssuerKeys: [licence.trustedKey])
        let night = try AnalyzerNights.write(index: 0, into: storage.url)
        // A missing file fails the source's own start; a second analysis on a running analyzer fails before it.
        let missing = FileDataSource(
            audio: storage.url.appendingPathComponent("missing.wav"), accelerometer: nil, pace: .realTime)
        await XCTAssertThrowsErrorAsync(
            try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: missing))
        let waitedForMissing = try await secondsWaited(for: missing)
        XCTAssertLessThan(waitedForMissing, 1, "waiting for a source whose start failed")

        let running = FileDataSource(audio: night, accelerometer: nil, pace: .realTime)
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: running)
        let refused = FileDataSource(audio: night, accelerometer: nil, pace: .realTime)
        await XCTAssertThrowsErrorAsync(
            try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: refused))
        let waitedForRefused = try await secondsWaited(for: refused)
        XCTAssertLessThan(waitedForRefused, 1, "waiting for a source whose analysis was refused")
        await analyzer.stopDataSource()
        await analyzer.deinitialize()
    }

    /// How long `waitUntilFinished()` took, waiting at most 5 s (a wait still running then is cancelled).
    private func secondsWaited(for source: any DataSource) async throws -> TimeInterval {
        let started = Date()
        let waiter = Task { await source.waitUntilFinished() }
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 5_000_000_000)
            waiter.cancel()
        }
        await waiter.value
        watchdog.cancel()
        return Date().timeIntervalSince(started)
    }
}

/// Asserts that `expression` throws.
private func XCTAssertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        _ = try await expression()
        XCTFail("no error was thrown", file: file, line: line)
    } catch {}
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Cancelling a task that awaits a long analyzer call ends the call with `CancellationError` within a second,
/// stops the replay and the analysis thread, and returns no night: the night stays resumable instead.
final class CancellationTests: InitializedAnalyzerTestCase {
    override var analyzerName: String { "cancellation" }

    func test_cancellingTheTaskThatStartsWaitsAndStops_throwsCancellationErrorWithinASecond_andStopsTheAnalysis()
        async throws
    {
        // Given a 4-minute night replayed in real time by a task that starts, waits for the source and stops
        let audio = try AnalyzerNights.write(index: 0, into: storage.url)
        let start = AnalyzerNights.startTime(of: 0)
        let source = FileDataSource(audio: audio, accelerometer: nil, startTime: start, pace: .realTime)
        let threadsBefore = LibraryThreadCounts.now
        let analyzer = try XCTUnwrap(analyzer)
        let night = Task {
            try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
            await source.waitUntilFinished()
            return try await analyzer.stopAnalysis()
        }
        try await waitUntilRunning(analyzer)
        try await Task.sleep(nanoseconds: 300_000_000)
        var running = threadsBefore
        running.pipelines += 1
        running.fileReplays += 1
        XCTAssertEqual(LibraryThreadCounts.now, running, "the night's pipeline and replay threads should run")

        // When the task is cancelled mid-night
        let cancelled = Date()
        night.cancel()
        let outcome = await night.result

        // Then the call ends with CancellationError within a second, returns no night, and its threads are gone
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 1, "the cancelled night did not end within a second")
        switch outcome {
        case .success(let result):
            XCTFail("a cancelled night returned \(result.endTime.timeIntervalSince(result.startTime)) s of result")
        case .failure(let error):
            XCTAssertTrue(error is CancellationError, "expected CancellationError, got \(error)")
        }
        let after = await LibraryThreadCounts.waitUntil(atMost: threadsBefore, timeout: 1)
        XCTAssertTrue(after.isAtMost(threadsBefore), "still running after the cancellation: \(after)")
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 1.5)
        let state = await analyzer.currentState
        XCTAssertEqual(state, .initialized)

        // And the night stays resumable: resumed on the same recording, it ends with the whole night
        let resumable = await analyzer.isResumePossible()
        XCTAssertTrue(resumable, "the cancelled night should stay resumable")
        let again = FileDataSource(audio: audio, accelerometer: nil, startTime: start)
        try await analyzer.resumeAnalysis(using: again)
        await again.waitUntilFinished()
        let result = try await analyzer.stopAnalysis()
        XCTAssertEqual(result.startTime, start)
        XCTAssertEqual(
            result.endTime.timeIntervalSince(start), Double(AnalyzerNights.nightSeconds), accuracy: 0.05)
    }

    func test_startAnalysis_inACancelledTask_throwsCancellationError_andLeavesNothingRunning() async throws {
        // Given a cancelled task
        let audio = try AnalyzerNights.write(index: 1, into: storage.url)
        let source = FileDataSource(
            audio: audio, accelerometer: nil, startTime: AnalyzerNights.startTime(of: 1), pace: .realTime)
        let threadsBefore = LibraryThreadCounts.now
        let analyzer = try XCTUnwrap(analyzer)

        // When it starts an analysis
        let start = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
        }
        let outcome = await start.result

        // Then the start throws CancellationError and nothing runs or stays journaled
        switch outcome {
        case .success(let sessionId): XCTFail("a cancelled start began session \(sessionId)")
        case .failure(let error): XCTAssertTrue(error is CancellationError, "expected CancellationError, got \(error)")
        }
        let state = await analyzer.currentState
        XCTAssertEqual(state, .initialized)
        let resumable = await analyzer.isResumePossible()
        XCTAssertFalse(resumable)
        let after = await LibraryThreadCounts.waitUntil(atMost: threadsBefore, timeout: 1)
        XCTAssertTrue(after.isAtMost(threadsBefore), "left running by a cancelled start: \(after)")
    }

    func test_stopAndResume_inACancelledTask_returnNoResult_andTheNightStaysResumable()
        async throws
    {
        // Given a night replayed to its end
        let audio = try AnalyzerNights.write(index: 2, into: storage.url)
        let start = AnalyzerNights.startTime(of: 2)
        let source = FileDataSource(audio: audio, accelerometer: nil, startTime: start)
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
        await source.waitUntilFinished()
        let analyzer = try XCTUnwrap(analyzer)

        // When a cancelled task stops it
        let stop = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await analyzer.stopAnalysis()
        }
        let outcome = await stop.result

        // Then it gets CancellationError, not the night, and the night can be finished by a resume
        if case .success = outcome { XCTFail("a cancelled stop returned the night") }
        XCTAssertTrue((outcome.error) is CancellationError, "\(String(describing: outcome.error))")
        let resumable = await analyzer.isResumePossible()
        XCTAssertTrue(resumable)

        // And a resume in a cancelled task is undone: CancellationError, nothing running, still resumable
        let threadsBefore = LibraryThreadCounts.now
        let again = FileDataSource(audio: audio, accelerometer: nil, startTime: start)
        let resume = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await analyzer.resumeAnalysis(using: again)
        }
        let resumed = await resume.result
        XCTAssertTrue((resumed.error) is CancellationError, "\(String(describing: resumed.error))")
        let state = await analyzer.currentState
        XCTAssertEqual(state, .initialized)
        let stillResumable = await analyzer.isResumePossible()
        XCTAssertTrue(stillResumable)
        let after = await LibraryThreadCounts.waitUntil(atMost: threadsBefore, timeout: 1)
        XCTAssertTrue(after.isAtMost(threadsBefore), "left running by a cancelled resume: \(after)")
    }

    /// Polls until `analyzer` runs a source (5 s at most).
    private func waitUntilRunning(_ analyzer: SleepAnalyzer) async throws {
        let deadline = Date().addingTimeInterval(5)
        while await analyzer.currentState != .running {
            guard Date() < deadline else { return XCTFail("the analysis did not start within 5 s") }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}

extension Result {
    /// The failure's error, or nil for a success.
    fileprivate var error: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}

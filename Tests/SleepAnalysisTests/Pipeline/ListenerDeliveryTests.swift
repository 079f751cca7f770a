import Foundation
import Synchronization
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Nothing computed is lost on its way to the listeners: once a recording's `waitUntilFinished()` returns, every
/// batch of it has been analysed and handed to every listener, and once `stopAnalysis()` returns every batch the
/// result covers has been; a listener that stops the analysis from its own callback does not hang it.
final class ListenerDeliveryTests: SDKTestCase {
    /// 150 s at 16 kHz: 15,000 level frames of 10 ms, 3,000 of them in the last (half) clock minute, and more than
    /// the pipeline's queue holds, so that a fast replay ends well before its analysis does.
    private let seconds = 150.0
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    func test_after_waitUntilFinished_every_batch_of_a_fast_replay_has_reached_every_listener() async throws {
        _ = try await initializeSDK(features: .none)
        let audio = try writeNoiseFile(seconds: seconds, sampleRate: 16_000)
        for run in 1...3 {
            let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
            let collector = SoundLevelCollector()
            let recorder = RecordingAudioListener()
            try await SleepCycleSdk.startAnalysis(
                config: SleepAnalysisConfig(), using: source, eventListeners: [collector, recorder])
            await source.waitUntilFinished()

            // Read before the stop: the replay is over, so its analysis must be too.
            let frames = collector.timeline.minutes.map(\.frameCount)
            let samples = recorder.batches.map(\.sampleCount).reduce(0, +)
            XCTAssertEqual(frames, [6_000, 6_000, 3_000], "run \(run): every 10-ms frame, by clock minute")
            XCTAssertEqual(samples, Int(seconds) * 16_000, "run \(run): every sample")

            let result = try await SleepCycleSdk.stopAnalysis()
            XCTAssertEqual(result.endTime.timeIntervalSince(start), seconds, accuracy: 0.01, "run \(run)")
            XCTAssertEqual(collector.timeline.minutes.map(\.frameCount), [6_000, 6_000, 3_000], "run \(run)")
            XCTAssertEqual(recorder.batches.last?.endTime, result.endTime, "run \(run): the result's last batch")
        }
    }

    func test_an_analyzer_delivers_every_batch_of_a_replay_before_its_wait_returns() async throws {
        let analyzer = try await makeAnalyzer()
        let audio = try writeNoiseFile(seconds: seconds, sampleRate: 48_000, channels: 2)
        for run in 1...2 {
            let source = analyzer.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
            let recorder = RecordingAudioListener()
            try await analyzer.startAnalysis(config: SleepAnalysisConfig(), using: source, eventListeners: [recorder])
            await source.waitUntilFinished()
            let levels = recorder.batches.map(\.dbSplCount).reduce(0, +)
            XCTAssertEqual(levels, Int(seconds) * 100, "run \(run): every frame before the stop")

            let result = try await analyzer.stopAnalysis()
            XCTAssertEqual(recorder.batches.map(\.dbSplCount).reduce(0, +), Int(seconds) * 100, "run \(run)")
            XCTAssertEqual(recorder.batches.last?.endTime, result.endTime, "run \(run)")
        }
        await analyzer.deinitialize()
    }

    func test_a_listener_that_stops_the_analysis_from_its_callback_neither_hangs_nor_misses_a_batch() async throws {
        let analyzer = try await makeAnalyzer()
        let audio = try writeNoiseFile(seconds: seconds, sampleRate: 16_000)
        let source = analyzer.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
        // After 30 s of audio the listener asks for the stop from the analysis thread and returns at once.
        let stopper = StoppingListener(analyzer: analyzer, after: 30)
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(), using: source, eventListeners: [stopper])

        let result = try await withTimeout(seconds: 60) { try await stopper.result() }

        XCTAssertGreaterThanOrEqual(result.endTime.timeIntervalSince(start), 30)
        XCTAssertLessThan(result.endTime.timeIntervalSince(start), seconds, "stopped before the end of the replay")
        // Every batch the result covers reached the listener, and none after the stop.
        let covered = Int((result.endTime.timeIntervalSince(start) * 16_000).rounded())
        XCTAssertEqual(stopper.samples, covered)
        try await Task.sleep(for: .milliseconds(200))
        XCTAssertEqual(stopper.samples, covered, "no batch after the stop returned")
        let state = await analyzer.currentState
        XCTAssertEqual(state, .initialized)
        await source.waitUntilFinished()
        await analyzer.deinitialize()
    }

    // MARK: - Helpers

    /// An analyzer of its own in the test's storage, under a licence without features.
    private func makeAnalyzer() async throws -> SleepAnalyzer {
        let licence = try TestLicenses.make(features: .none)
        let analyzer = SleepAnalyzer(name: "listener-delivery")
        try await analyzer.initialize(
            logLevel: .warning, apiKey: licence.apiKey,
            storageDirectory: storage.url.appendingPathComponent("analyzer"), trustedIssuerKeys: [licence.trustedKey])
        return analyzer
    }

    /// `body`'s value, or a failure after `seconds` (a hang fails the test instead of hanging CI).
    private func withTimeout<T: Sendable>(
        seconds: Double, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                XCTFail("timed out after \(seconds) s: a deadlock")
                throw CancellationError()
            }
            return value
        }
    }
}

/// Counts samples and, once `after` seconds of audio arrived, starts `stopAnalysis()` from within its callback
/// (on the analysis thread) and returns without waiting for it.
private final class StoppingListener: AudioEventListener, Sendable {
    private struct State {
        var samples = 0
        var stop: Task<AnalysisResult, any Error>?
    }
    private let state = Mutex(State())
    private let analyzer: SleepAnalyzer
    private let threshold: Int
    private let stopStarted = AsyncStream<Task<AnalysisResult, any Error>>.makeStream()

    init(analyzer: SleepAnalyzer, after seconds: Int) {
        self.analyzer = analyzer
        threshold = seconds * 16_000
    }

    /// The samples received so far.
    var samples: Int { state.withLock { $0.samples } }

    /// The result of the stop the listener started.
    func result() async throws -> AnalysisResult {
        for await task in stopStarted.stream { return try await task.value }
        throw SleepCycleSdkError.analysisNotActive
    }

    func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        let analyzer = self.analyzer
        let started = state.withLock { state -> Task<AnalysisResult, any Error>? in
            state.samples += audioSamples.count
            guard state.stop == nil, state.samples >= threshold else { return nil }
            let task = Task { try await analyzer.stopAnalysis() }
            state.stop = task
            return task
        }
        if let started {
            stopStarted.continuation.yield(started)
            stopStarted.continuation.finish()
        }
    }
}

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

    func test_a_listener_that_stops_a_source_which_finishes_at_once_does_not_wait_for_itself() async throws {
        let analyzer = try await makeAnalyzer()
        // A source whose `stop()` finishes the sink on the calling thread, stopped by a listener: the finish then
        // runs on the analysis thread, which must not wait for itself to analyse what came before.
        let source = SynchronouslyFinishingSource(startTime: start, seconds: seconds)
        let stopper = SourceStoppingListener(source: source, after: 10)
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(), using: source, eventListeners: [stopper])

        let result = try await withTimeout(seconds: 60) {
            await source.waitUntilFinished()
            return try await analyzer.stopAnalysis()
        }

        let covered = result.endTime.timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(covered, 10)
        XCTAssertLessThan(covered, seconds, "stopped before the end of the source")
        XCTAssertEqual(stopper.samples, Int((covered * 16_000).rounded()), "every batch the result covers")
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

    /// `body`'s value, or a failure after `seconds`: a hang fails the test instead of hanging CI (the hung task
    /// is left behind, not awaited, as a task group would).
    private func withTimeout<T: Sendable>(
        seconds: Double, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let pending = Mutex<CheckedContinuation<T, any Error>?>(nil)
        let settle = { @Sendable (outcome: Result<T, any Error>) in
            pending.withLock { continuation in
                continuation?.resume(with: outcome)
                continuation = nil
            }
        }
        return try await withCheckedThrowingContinuation { continuation in
            pending.withLock { $0 = continuation }
            Task {
                do { settle(.success(try await body())) } catch { settle(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                settle(.failure(TimedOut(seconds: seconds)))
            }
        }
    }
}

/// A wait that did not end: a deadlock.
private struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "timed out after \(seconds) s: a deadlock" }
}

/// A finite mono 16-kHz source of half-second chunks of a quiet tone, delivered from a thread of its own as fast
/// as they are taken, whose `stop()` finishes the sink at once on the thread that calls it.
private final class SynchronouslyFinishingSource: DataSource, @unchecked Sendable {
    let startTime: Date
    let channelCount = 1
    let isFinite = true
    private let seconds: Double
    // Guarded by `lock`.
    private let lock = NSLock()
    private var sink: (any SensorDataSink)?
    private var finished = false

    init(startTime: Date, seconds: Double) {
        self.startTime = startTime
        self.seconds = seconds
    }

    func start(delivering sink: any SensorDataSink) throws {
        lock.withLock { self.sink = sink }
        let chunks = Int(seconds * 2)
        let thread = Thread {
            for index in 0..<chunks {
                guard let sink = self.lock.withLock({ self.finished ? nil : self.sink }) else { return }
                let samples = (0..<8_000).map {
                    Float(0.02 * sin(2 * Double.pi * 440 * Double(index * 8_000 + $0) / 16_000))
                }
                sink.deliver(
                    .audio(
                        AudioChunk(
                            samples: samples, channelCount: 1, sampleRate: 16_000, firstFrameIndex: Int64(index * 8_000)
                        )))
            }
            self.finishOnce()
        }
        thread.start()
    }

    func stop() { finishOnce() }

    func waitUntilFinished() async {
        while !lock.withLock({ finished }) { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// Finishes the sink on the calling thread, once.
    private func finishOnce() {
        let sink = lock.withLock { () -> (any SensorDataSink)? in
            guard !finished else { return nil }
            defer { self.sink = nil }
            return self.sink
        }
        sink?.finish(error: nil)
        lock.withLock { finished = true }
    }
}

/// Counts samples and, once `after` seconds of audio arrived, stops the source from within its callback.
private final class SourceStoppingListener: AudioEventListener, Sendable {
    private let received = Mutex(0)
    private let source: any DataSource
    private let threshold: Int

    init(source: any DataSource, after seconds: Int) {
        self.source = source
        threshold = seconds * 16_000
    }

    /// The samples received so far.
    var samples: Int { received.withLock { $0 } }

    func onAudioAnalysisBatchCompleted(
        sessionId: UUID, audioSamples: [Float], audioSampleRate: Int, audioStartTime: Date, audioEndTime: Date,
        audioProbability: [EventType: Float], eventsStarted: [EventStartedInfo], eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        let reached = received.withLock { count -> Bool in
            count += audioSamples.count
            return count >= threshold
        }
        if reached { source.stop() }
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

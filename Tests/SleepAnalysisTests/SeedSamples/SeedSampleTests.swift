import Foundation
import SleepAnalysis
import TestSupport
import XCTest

/// Runs the seed's own samples (`SeedSamples.swift`, public API only) against short synthetic nights.
///
/// The samples that initialize without `storageDirectory:` or `trustedIssuerKeys:` run as written: the test points
/// `XDG_STATE_HOME`, `XDG_DATA_HOME` and `SLEEPANALYSIS_TRUSTED_KEYS` at its own directory and issuer. Samples
/// that capture from the microphone (no `using:`) only compile here; their calls run against file sources through
/// the `using:` argument the API adds.
final class SeedSampleTests: SDKTestCase {
    private var licence: (apiKey: String, trustedKey: String)!
    private let environment = ScopedEnvironment()

    /// The night every test replays starts here (2027-01-15 08:00 UTC).
    private let nightStart = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUp() async throws {
        try await super.setUp()
        let features = try await SeedSampleLicence.widestFeatures(storage: storage.url)
        licence = try TestLicenses.make(features: features, subject: "seed samples")
        environment.isolateSDK(in: storage.url, trusting: licence.trustedKey)
    }

    override func tearDown() async throws {
        await SleepCycleSdk.deinitialize()
        environment.restore()
        try await super.tearDown()
    }

    // MARK: - Set-up and life cycle

    @MainActor
    func test_seedSamples_initialize_featureFlag_telemetry_clear_and_state_run_as_written() async throws {
        let app = SeedSampleApp(apiKey: licence.apiKey)
        let stateObserver = app.observeState()
        defer { stateObserver.cancel() }
        // The stream starts with the current state: wait for it, or a slow start of the observer's task would
        // see the SDK already initialised.
        let subscribed = await waitFor { app.transcript.contains("SDK not initialized") }
        XCTAssertTrue(subscribed, "the state observer printed nothing")

        await app.initializeInTask().value
        let granted = try XCTUnwrap(app.transcript.first { $0.hasPrefix("Authorized with features: ") })
        let currentState = await app.readCurrentState()
        XCTAssertEqual(currentState, .initialized)

        app.presentEventUIIfLicensed()
        XCTAssertEqual(app.eventUIPresentations, SleepCycleSdk.isFeatureEnabled(\.audioEvents) ? 1 : 0)

        await app.deinitializeSDK()
        let afterDeinitialize = await app.readCurrentState()
        XCTAssertEqual(afterDeinitialize, .uninitialized)
        XCTAssertFalse(SleepCycleSdk.isFeatureEnabled(\.audioEvents))

        // Telemetry: analytics on records an `initialized` event in the local spool file (never the network).
        let features = try await app.initializeWithTelemetry()
        XCTAssertEqual(granted, "Authorized with features: \(features)")
        let spool = storage.url.appendingPathComponent("xdg-state/sleepanalysis/telemetry.jsonl")
        let spooled = try String(contentsOf: spool, encoding: .utf8)
        XCTAssertTrue(spooled.contains("initialized"), spooled)

        // clear() deletes the licence cache: the next initialize records the key again.
        let tokenCache = storage.url.appendingPathComponent("xdg-state/sleepanalysis/license")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: tokenCache.path).isEmpty)
        await app.clearSDK()
        XCTAssertTrue((try? FileManager.default.contentsOfDirectory(atPath: tokenCache.path))?.isEmpty ?? true)

        // The bundled product never calls onDownloadProgress.
        let again = try await app.initializeReportingDownloadProgress()
        XCTAssertEqual(again, features)
        XCTAssertEqual(app.downloadProgress, 0)
        await app.deinitializeSDK()

        let seen = await waitFor { app.transcript.filter { $0.hasPrefix("SDK ") }.count >= 6 }
        XCTAssertTrue(seen, "state changes printed: \(app.transcript)")
        XCTAssertEqual(
            Array(app.transcript.filter { $0.hasPrefix("SDK ") }.prefix(6)),
            [
                "SDK not initialized", "SDK ready", "SDK not initialized", "SDK ready", "SDK not initialized",
                "SDK ready",
            ])
    }

    // MARK: - One sleeper: live streams, listener, clips, smart alarm, result, score

    @MainActor
    func test_seedSamples_streams_listener_alarm_and_score_cover_a_recorded_night() async throws {
        let app = SeedSampleApp(apiKey: licence.apiKey)
        await app.initializeInTask().value
        let features = try XCTUnwrap(featuresGranted(app))
        let observers = [
            app.observeEvents(), app.observeBreathingRate(), app.observeSleepStages(), app.observeAudioHealth(),
            app.observeSmartAlarm(),
        ]
        defer { observers.forEach { $0.cancel() } }
        await letObserversSubscribe()

        let seconds = 150.0
        let audio = try writeNoiseFile(seconds: seconds, sampleRate: 16_000)
        let accelerometer = try writeAccelerometerFile(seconds: seconds, movementAt: 70)
        let source = SleepCycleSdk.createFileDataSource(
            audio: audio, accelerometer: accelerometer, startTime: nightStart)
        let listener = MyAudioListener()
        let handler = MyAudioHandler()
        let clips = SleepCycleSdk.createAudioClipsProducer(
            audioClipsConfig: AudioClipsConfig(
                activeTypes: [.snoring: EventTypeConfig(minDuration: 0.5), .movement: EventTypeConfig(minDuration: 0)],
                clipLength: 5.0),
            receiver: handler)
        let window = DateInterval(start: nightStart + 45, end: nightStart + 105)
        let sessionId = try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true, useAccelerometer: true), using: source,
            eventListeners: [listener, clips],
            smartAlarmConfig: features.smartAlarm ? SmartAlarmConfig(wakeupWindow: window) : nil)
        await source.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis()

        // The result covers the whole recording.
        XCTAssertEqual(result.sessionId, sessionId)
        XCTAssertEqual(result.startTime, nightStart)
        XCTAssertEqual(result.endTime.timeIntervalSince(nightStart), seconds, accuracy: 0.05)
        let dataSourceError = await SleepCycleSdk.dataSourceError
        XCTAssertNil(dataSourceError)
        // The accelerometer sways at 3 rad/s, a breathing-like 28.6 breaths per minute.
        XCTAssertFalse(result.breathingRates.isEmpty)
        for rate in result.breathingRates {
            XCTAssertEqual(rate.bpm, 60 * 3 / (2 * Double.pi), accuracy: 0.5)
            XCTAssertEqual(rate.sessionId, sessionId)
        }
        // The two-second jolt at 70 s is a movement, felt by the accelerometer.
        let movement = result.events.first { $0.type == .movement && $0.source == .accelerometer }
        XCTAssertEqual(
            movement?.interval.start.timeIntervalSince(nightStart) ?? -1, 70, accuracy: 2, "\(result.events)")
        for event in result.events {
            XCTAssertEqual(event.sessionId, sessionId)
            XCTAssertTrue(DateInterval(start: nightStart, end: result.endTime).contains(event.interval.start))
        }
        if features.sleepStaging {
            XCTAssertEqual(result.sleepStagePredictions.count, Int(seconds / 30))
            let covered = result.sleepStageIntervals.map(\.interval.duration).reduce(0, +)
            XCTAssertEqual(covered, seconds, accuracy: 30)
            for prediction in result.sleepStagePredictions {
                let probabilities = prediction.probabilities
                XCTAssertEqual(
                    probabilities.awake + probabilities.rem + probabilities.light + probabilities.deep, 1,
                    accuracy: 1e-6)
            }
        }

        // The listener saw every analysed sample once, in order.
        let batches = listener.batches
        XCTAssertEqual(batches.first?.span.start, nightStart)
        for (previous, next) in zip(batches, batches.dropFirst()) {
            XCTAssertEqual(next.span.start.timeIntervalSince(previous.span.end), 0, accuracy: 1e-6)
        }
        XCTAssertEqual(
            Double(batches.map(\.sampleCount).reduce(0, +)) / Double(batches.first?.sampleRate ?? 1), seconds,
            accuracy: 0.05)
        XCTAssertTrue(batches.allSatisfy { $0.sessionId == sessionId && !$0.dbSpl.isEmpty })
        for clip in handler.clips {
            XCTAssertEqual(clip.sessionId, sessionId)
            XCTAssertEqual(Double(clip.samples.count) / Double(clip.sampleRate), 5, accuracy: 0.01)
        }

        // The stream samples printed what the night produced.
        let epochs = features.realTimeSleepStaging ? Int(seconds / 30) : 0
        let staged = await waitFor {
            app.transcript.filter { $0.hasPrefix("Deep sleep probability: ") }.count >= epochs
        }
        XCTAssertTrue(staged, "one real-time prediction per epoch: \(app.transcript)")
        let rang = await waitFor { app.alarmRings == (features.smartAlarm ? 1 : 0) }
        XCTAssertTrue(rang, "the alarm rings once, inside its window: \(app.transcript)")
        if features.smartAlarm {
            XCTAssertEqual(app.transcript.first { $0.hasPrefix("Smart alarm") }, "Smart alarm armed")
        }
        let dispatched = await waitFor { app.handledEvents.contains { $0.handler == "movement" } }
        XCTAssertTrue(dispatched, "the event-stream sample dispatched the movement to handleMovement")
        for (_, event) in app.handledEvents { XCTAssertEqual(event.sessionId, sessionId) }

        // The sleep-score sample, on this night with no history.
        let scored = app.scoreNight(
            result: result, recentHistoryEntries: [], userDateOfBirth: nil, userChronoType: nil)
        XCTAssertEqual(scored.historyEntry, result.toSleepScoreHistoryEntry())
        for part in [scored.score.total, scored.score.duration, scored.score.quality, scored.score.routine] {
            XCTAssertTrue((0...1).contains(part), "score part \(part) outside 0...1")
        }
        XCTAssertTrue(app.transcript.contains { $0.hasPrefix("Sleep score: ") })

        // Audio health covers the session and was streamed.
        let health = try XCTUnwrap(result.audioStatistics?.healthIntervals)
        XCTAssertEqual(health.first?.interval.start, nightStart)
        XCTAssertEqual(health.last?.interval.end, result.endTime)
        let healthy = await waitFor { app.transcript.contains("Audio input healthy") }
        XCTAssertTrue(healthy, "\(app.transcript)")
    }

    // MARK: - Stop sample

    @MainActor
    func test_seedSample_stop_prints_the_session_result_then_reports_no_session() async throws {
        let app = SeedSampleApp(apiKey: licence.apiKey)
        await app.initializeInTask().value
        let audio = try writeNoiseFile(seconds: 20, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: nightStart)
        let sessionId = try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true), using: source)
        await source.waitUntilFinished()

        await app.stopAndPrintResult().value
        XCTAssertEqual(app.transcript.first { $0.hasPrefix("Session ID: ") }, "Session ID: \(sessionId)")
        XCTAssertFalse(app.transcript.contains { $0.hasPrefix("Failed to stop analysis") })
        let healthLines = app.transcript.filter { $0.hasPrefix("Audio ") }

        await app.stopAndPrintResult().value
        XCTAssertEqual(
            app.transcript.last, "Failed to stop analysis: \(SleepCycleSdkError.analysisNotActive)")

        // A steady noise floor with a tone is a healthy input from start to end.
        XCTAssertEqual(healthLines.count, 1, "\(healthLines)")
        XCTAssertEqual(healthLines.first?.hasPrefix("Audio healthy: "), true, "\(healthLines)")
    }

    // MARK: - Smart alarm while running

    @MainActor
    func test_seedSamples_updateSmartAlarm_adds_then_cancels_the_alarm_of_a_running_session() async throws {
        let app = SeedSampleApp(apiKey: licence.apiKey)
        await app.initializeInTask().value
        guard SleepCycleSdk.isFeatureEnabled(\.smartAlarm) else {
            throw XCTSkip("this build has no bundled staging model, so licences cannot grant smartAlarm yet")
        }
        let alarm = app.observeSmartAlarm()
        defer { alarm.cancel() }
        await letObserversSubscribe()

        // Added while running: armed, then it fires inside the window (at its end at the latest).
        let audio = try writeNoiseFile(seconds: 60, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(
            audio: audio, accelerometer: nil, startTime: nightStart, pace: .speed(40))
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
        try await app.moveSmartAlarm(newStart: nightStart + 40, newEnd: nightStart + 50)
        await source.waitUntilFinished()
        _ = try await SleepCycleSdk.stopAnalysis()
        let rang = await waitFor { app.alarmRings == 1 }
        XCTAssertTrue(rang, "\(app.transcript)")

        // Cancelled before its window: it never fires.
        let second = SleepCycleSdk.createFileDataSource(
            audio: audio, accelerometer: nil, startTime: nightStart, pace: .speed(40))
        try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true), using: second,
            smartAlarmConfig: SmartAlarmConfig(
                wakeupWindow: DateInterval(start: nightStart + 40, end: nightStart + 50)))
        try await app.cancelSmartAlarm()
        await second.waitUntilFinished()
        _ = try await SleepCycleSdk.stopAnalysis()
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(app.alarmRings, 1)

        // Without a running session the call fails with analysisNotActive.
        do {
            try await app.cancelSmartAlarm()
            XCTFail("expected analysisNotActive")
        } catch let error as SleepCycleSdkError {
            XCTAssertEqual(error, .analysisNotActive)
        }
    }

    // MARK: - Resume

    @MainActor
    func test_seedSamples_resume_after_deinitialize_and_discard_with_clearActiveSessions() async throws {
        let app = SeedSampleApp(apiKey: licence.apiKey)
        await app.initializeInTask().value
        let audio = try writeNoiseFile(seconds: 40, sampleRate: 16_000)

        // A session interrupted by deinitialize (the app was closed) stays resumable.
        let first = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: nightStart)
        let sessionId = try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: first)
        await first.waitUntilFinished()
        await app.deinitializeSDK()
        await app.initializeInTask().value
        let resumable = await SleepCycleSdk.isResumePossible()
        XCTAssertTrue(resumable)
        // The rest of the night comes as a new recording (other sounds) that starts where the first ended.
        let rest = try writeNoiseFile(seconds: 40, sampleRate: 16_000, name: "night-continued.wav", seed: 7)
        let later = SleepCycleSdk.createFileDataSource(
            audio: rest, accelerometer: nil, startTime: nightStart + 40)
        let resumed = try await SleepCycleSdk.resumeAnalysis(using: later)
        XCTAssertEqual(resumed.map(\.sessionId), [sessionId])
        XCTAssertEqual(resumed.first?.channel, .primary)
        await later.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis()
        XCTAssertEqual(result.sessionId, sessionId)
        XCTAssertEqual(result.startTime, nightStart)
        XCTAssertEqual(result.endTime.timeIntervalSince(nightStart), 80, accuracy: 0.05)

        // Interrupted again, then discarded: the resume sample then finds nothing to resume.
        let third = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: nightStart)
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: third)
        await third.waitUntilFinished()
        await app.deinitializeSDK()
        await app.initializeInTask().value
        let resumableAgain = await SleepCycleSdk.isResumePossible()
        XCTAssertTrue(resumableAgain)
        try await app.discardResumableSessions()
        let afterDiscard = await SleepCycleSdk.isResumePossible()
        XCTAssertFalse(afterDiscard)
        let printed = app.transcript.count
        try await app.resumeIfPossible()
        XCTAssertEqual(app.transcript.count, printed, "nothing to resume, nothing printed")
    }

    // MARK: - Two sleepers

    @MainActor
    func test_seedSamples_two_sleepers_start_each_channel_and_stop_independently() async throws {
        let app = SeedSampleApp(apiKey: licence.apiKey)
        await app.initializeInTask().value
        XCTAssertTrue(SleepCycleSdk.isFeatureEnabled(\.multiChannelAnalysis))
        let audio = try writeNoiseFile(seconds: 30, sampleRate: 16_000, channels: 2, name: "stereo.wav")
        let dataSource = SleepCycleSdk.createFileDataSource(
            audio: audio, accelerometer: nil, startTime: nightStart, pace: .speed(15))

        // The seed's calls, on a stereo recording instead of the stereo microphone.
        try await SleepCycleSdk.startDataSource(using: dataSource, channelSeparationConfig: .bedSideMics)
        let sessions = try await app.startSessionOnEachChannel()
        XCTAssertNotEqual(sessions.primary, sessions.secondary)
        await dataSource.waitUntilFinished()
        let results = try await app.stopEachChannel(
            primarySessionId: sessions.primary, secondarySessionId: sessions.secondary)
        await app.stopStereoSource()

        XCTAssertEqual(results.primary.sessionId, sessions.primary)
        XCTAssertEqual(results.secondary.sessionId, sessions.secondary)
        for result in [results.primary, results.secondary] {
            XCTAssertGreaterThan(result.endTime, result.startTime)
            XCTAssertEqual(result.endTime.timeIntervalSince(nightStart), 30, accuracy: 0.05)
        }
        let state = await app.readCurrentState()
        XCTAssertEqual(state, .initialized)
    }

    // MARK: - Microphone samples without a sound card

    @MainActor
    func test_seedSamples_on_the_microphone_fail_with_dataSourceFailure_without_a_sound_card() async throws {
        guard !FileManager.default.fileExists(atPath: "/dev/snd") else {
            throw XCTSkip("this machine has a sound card: the microphone samples would record from it")
        }
        let app = SeedSampleApp(apiKey: licence.apiKey)
        await app.initializeInTask().value

        await app.startAnalysisOnMicrophone().value
        let printed = try XCTUnwrap(app.transcript.last)
        XCTAssertTrue(printed.hasPrefix("Failed to start analysis: Data source failure: "), printed)
        try await assertDataSourceFailure { try await app.startAnalysisWithAudioListener() }
        try await assertDataSourceFailure { try await app.startAnalysisWithAudioClips() }
        try await assertDataSourceFailure { try await app.startStereoMicrophone() }
        if SleepCycleSdk.isFeatureEnabled(\.smartAlarm) {
            try await assertDataSourceFailure {
                try await app.startAnalysisWithSmartAlarm(
                    windowStart: self.nightStart, windowEnd: self.nightStart + 600)
            }
        }
        let state = await app.readCurrentState()
        XCTAssertEqual(state, .initialized)
        let resumable = await SleepCycleSdk.isResumePossible()
        XCTAssertFalse(resumable, "a session that never started leaves nothing to resume")

        // The SDK is still usable: a recorded night runs.
        let audio = try writeNoiseFile(seconds: 5, sampleRate: 16_000)
        let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: nightStart)
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
        await source.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis()
        XCTAssertEqual(result.endTime.timeIntervalSince(nightStart), 5, accuracy: 0.05)
    }

    // MARK: - Helpers

    /// Runs `body` and checks that it throws `SleepCycleSdkError.dataSourceFailure`.
    @MainActor
    private func assertDataSourceFailure(
        _ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        do {
            try await body()
            XCTFail("expected dataSourceFailure", file: file, line: line)
        } catch let error as SleepCycleSdkError {
            guard case .dataSourceFailure = error else { return XCTFail("got \(error)", file: file, line: line) }
        }
    }

    /// The features the initialize sample printed, parsed back from the licence the test issued.
    @MainActor
    private func featuresGranted(_ app: SeedSampleApp) -> SleepAnalysisFeatures? {
        guard app.transcript.contains(where: { $0.hasPrefix("Authorized with features: ") }) else { return nil }
        var features = SleepAnalysisFeatures.none
        for name in SleepAnalysisFeatures.featureNames {
            let path = SeedSampleLicence.keyPath(named: name)
            if let path, SleepCycleSdk.isFeatureEnabled(path) { features[keyPath: path] = true }
        }
        return features
    }

    /// Writes an accelerometer CSV (`timestamp,x,y,z`, seconds from the start, in g) at 10 Hz: a faint sway at
    /// 3 rad/s (like breathing at 28.6 per minute), with a two-second movement at `movementAt`.
    private func writeAccelerometerFile(seconds: Double, movementAt: Double) throws -> URL {
        var lines = ["# units: g", "timestamp,x,y,z"]
        for index in 0..<Int(seconds * 10) {
            let time = Double(index) / 10
            let moving = time >= movementAt && time < movementAt + 2
            let wobble = moving ? 0.3 * sin(time * 20) : 0.002 * sin(time * 3)
            lines.append(String(format: "%.1f,%.4f,%.4f,%.4f", time, wobble, 0.01 - wobble, 1 + wobble))
        }
        let url = storage.url.appendingPathComponent("accelerometer.csv")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Gives the observer tasks just created time to subscribe: a replay runs much faster than real time, and a
    /// stream delivers only what is published after its subscription.
    @MainActor
    private func letObserversSubscribe() async {
        try? await Task.sleep(nanoseconds: 500_000_000)
    }

    /// Polls `condition` on the main actor until it holds or `timeout` seconds pass.
    @MainActor
    private func waitFor(timeout: TimeInterval = 10, _ condition: () -> Bool) async -> Bool {
        let deadline = Date() + timeout
        while !condition() {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return true
    }
}

/// The widest licence this build can honour, for the sample tests.
enum SeedSampleLicence {
    /// The features that need the bundled sound-event model.
    private static var eventFeatures: [WritableKeyPath<SleepAnalysisFeatures, Bool>] {
        [\.audioEvents, \.snoringDetection, \.extendedAudioEvents]
    }
    /// The features that need the bundled sleep-stage model.
    private static var stagingFeatures: [WritableKeyPath<SleepAnalysisFeatures, Bool>] {
        [\.sleepStaging, \.realTimeSleepStaging, \.smartAlarm]
    }

    /// Every feature whose bundled model this build ships: `.all` once `Models/` holds the event and staging
    /// models. Found once per test run (see `probe`).
    static func widestFeatures(storage: URL) async throws -> SleepAnalysisFeatures {
        try await ProbeCache.shared.features { try await probe(storage: storage) }
    }

    /// Initializes with narrower and narrower licences until one succeeds, then clears the SDK.
    private static func probe(storage: URL) async throws -> SleepAnalysisFeatures {
        var lastError: (any Error)?
        for dropped in [[], eventFeatures, stagingFeatures, eventFeatures + stagingFeatures] {
            var features = SleepAnalysisFeatures.all
            for path in dropped { features[keyPath: path] = false }
            let licence = try TestLicenses.make(features: features)
            do {
                try await SleepCycleSdk.initialize(
                    logLevel: .noLog, apiKey: licence.apiKey,
                    storageDirectory: storage.appendingPathComponent("probe"), trustedIssuerKeys: [licence.trustedKey])
                await SleepCycleSdk.clear()
                return features
            } catch SleepCycleSdkError.modelUnavailable(let name) {
                lastError = SleepCycleSdkError.modelUnavailable(name)
            }
        }
        throw lastError ?? SleepCycleSdkError.notInitialized
    }

    /// The key path of the feature called `name` in licence keys.
    static func keyPath(named name: String) -> WritableKeyPath<SleepAnalysisFeatures, Bool>? {
        switch name {
        case "sleepStaging": \.sleepStaging
        case "smartAlarm": \.smartAlarm
        case "audioEvents": \.audioEvents
        case "snoringDetection": \.snoringDetection
        case "realTimeSleepStaging": \.realTimeSleepStaging
        case "multiChannelAnalysis": \.multiChannelAnalysis
        case "extendedAudioEvents": \.extendedAudioEvents
        default: nil
        }
    }
}

/// Remembers the probed features, so only the first test pays for the probe.
private actor ProbeCache {
    static let shared = ProbeCache()
    private var cached: SleepAnalysisFeatures?

    /// The cached features, or the result of `probe` (then cached).
    func features(_ probe: () async throws -> SleepAnalysisFeatures) async throws -> SleepAnalysisFeatures {
        if let cached { return cached }
        let features = try await probe()
        cached = features
        return features
    }
}

import Foundation
import SleepAnalysis

// The Swift samples of the seed document (`shared/seeds/000_*.txt`, the Sleep Cycle SDK's iOS documentation), in
// the order they appear there, with their calls unchanged: `import SleepCycleSDK` became `import SleepAnalysis`, the
// literal `"your-api-key-here"` became `apiKey` (a key the test signs), and each sample sits in a function with
// only the declarations it assumes around it (handler functions, window dates, listener classes).
//
// Samples written as `Task { ... }` are the body of a function that returns that task, so a test can wait for it
// or cancel it. Samples that bind a value the seed never uses again (`let features = ...`) return it, so the file
// builds without warnings. `print` inside `SeedSampleApp` is the app's own: it records each line (for the tests to
// read) and writes it to standard output.

/// An app that embeds the SDK exactly as the seed shows; every method is one sample.
@MainActor
final class SeedSampleApp {
    /// The licence key the samples pass where the seed writes `"your-api-key-here"`.
    let apiKey: String
    /// Model download progress, set from `onDownloadProgress` (the slim product's sample).
    var downloadProgress: Double = 0
    /// Every line the samples printed, in order.
    private(set) var transcript: [String] = []
    /// Events the event-stream sample dispatched, by handler.
    private(set) var handledEvents: [(handler: String, event: Event)] = []
    /// How often the smart-alarm sample rang the alarm.
    private(set) var alarmRings = 0
    /// How often the feature-flag sample presented the snore/talk UI.
    private(set) var eventUIPresentations = 0

    /// Creates the app with the key its samples use.
    init(apiKey: String) {
        self.apiKey = apiKey
    }

    /// Records a line the samples printed and writes it to standard output.
    func print(_ items: Any...) {
        let line = items.map { "\($0)" }.joined(separator: " ")
        transcript.append(line)
        Swift.print("[seed sample] \(line)")
    }

    // MARK: - 使用精简版 product (slim product: download progress)

    /// The slim product's `initialize` with a download-progress callback.
    func initializeReportingDownloadProgress() async throws -> SleepAnalysisFeatures {
        let features = try await SleepCycleSdk.initialize(
            logLevel: .info,
            apiKey: apiKey,
            onDownloadProgress: { progress in
                // progress 为 0...1 之间的比例，从后台上下文回调
                Task { @MainActor in self.downloadProgress = progress }
            }
        )
        return features
    }

    // MARK: - 初始化 SDK (initialize)

    /// `initialize` inside a task, printing the features or the error.
    @discardableResult
    func initializeInTask() -> Task<Void, Never> {
        Task {
            do {
                let features = try await SleepCycleSdk.initialize(
                    logLevel: .info,
                    apiKey: apiKey
                )
                print("Authorized with features: \(features)")
            } catch {
                print("Initialization error: \(error)")
            }
        }
    }

    // MARK: - 遥测数据 (telemetry)

    /// `initialize` with analytics and error reporting on.
    func initializeWithTelemetry() async throws -> SleepAnalysisFeatures {
        let features = try await SleepCycleSdk.initialize(
            logLevel: .info,
            apiKey: apiKey,
            telemetry: TelemetryConfig(analytics: true, errorReporting: true)
        )
        return features
    }

    /// The feature flag read at run time.
    func presentEventUIIfLicensed() {
        if SleepCycleSdk.isFeatureEnabled(\.audioEvents) {
            // Present snore/talk event UI
            presentSnoreAndTalkEventUI()
        }
    }

    /// The app's snore/talk event UI (the seed leaves it to the app).
    private func presentSnoreAndTalkEventUI() {
        eventUIPresentations += 1
    }

    // MARK: - 反初始化与清除 SDK (deinitialize and clear)

    /// Releases the SDK's resources; active sessions stay resumable.
    func deinitializeSDK() async {
        await SleepCycleSdk.deinitialize()
    }

    /// Deinitializes and deletes the cached token and downloaded models.
    func clearSDK() async {
        await SleepCycleSdk.clear()
    }

    // MARK: - 获取 SDK 状态 (state)

    /// Prints every state change (the task runs until cancelled).
    @discardableResult
    func observeState() -> Task<Void, Never> {
        Task {
            for await state in await SleepCycleSdk.stateStream {
                switch state {
                case .uninitialized:
                    print("SDK not initialized")
                case .initialized:
                    print("SDK ready")
                case .running:
                    print("Analysis in progress")
                }
            }
        }
    }

    /// Reads the current state once.
    func readCurrentState() async -> SleepCycleSdkState {
        let currentState = await SleepCycleSdk.currentState
        return currentState
    }

    // MARK: - 启动睡眠分析会话 (start a session on the microphone)

    /// Starts a session on the live microphone, printing the session id or the error.
    @discardableResult
    func startAnalysisOnMicrophone() -> Task<Void, Never> {
        Task {
            do {
                let sessionId: UUID = try await SleepCycleSdk.startAnalysis(
                    config: SleepAnalysisConfig(
                        useAudio: true,
                        useAccelerometer: true
                    )
                )
                print("Analysis started with session ID: \(sessionId)")
            } catch {
                print("Failed to start analysis: \(error)")
            }
        }
    }

    // MARK: - 恢复会话 (resume)

    /// Resumes the sessions an earlier run of the app left active.
    func resumeIfPossible() async throws {
        if await SleepCycleSdk.isResumePossible() {
            let resumedSessions: [ResumedSession] = try await SleepCycleSdk.resumeAnalysis()
            for session in resumedSessions {
                print("Resumed \(session.sessionId) on channel \(session.channel)")
            }
        }
    }

    /// Ends the resumable sessions without resuming them.
    func discardResumableSessions() async throws {
        try await SleepCycleSdk.clearActiveSessions()
    }

    // MARK: - 停止会话 (stop and print the result)

    /// Stops the session and prints its result.
    @discardableResult
    func stopAndPrintResult() -> Task<Void, Never> {
        Task {
            do {
                let result = try await SleepCycleSdk.stopAnalysis()

                print("Session ID: \(result.sessionId)")

                if let statistics = result.statistics {
                    print("Total sleep duration: \(statistics.totalSleepDuration ?? 0)")
                    print("Sleep efficiency: \(statistics.sleepEfficiency ?? 0)")

                    if let snoreSessions = statistics.snoreSessions {
                        for session in snoreSessions {
                            print("Snoring session: \(session.interval)")
                        }
                    }
                }

                for event in result.events {
                    print("\(event.type) detected: \(event.interval), p=\(event.probability)")
                }

                for breathingRate in result.breathingRates {
                    print("Breathing rate: \(breathingRate.bpm) bpm at \(breathingRate.timestamp)")
                }

                for stageInterval in result.sleepStageIntervals {
                    print("\(stageInterval.stage): \(stageInterval.interval)")
                }

                if let audioStats = result.audioStatistics {
                    for interval in audioStats.healthIntervals {
                        print("Audio \(interval.status): \(interval.interval)")
                    }
                }
            } catch {
                print("Failed to stop analysis: \(error)")
            }
        }
    }

    // MARK: - 睡眠评分 (sleep score)

    /// Scores a finished night against the stored history.
    func scoreNight(
        result: AnalysisResult, recentHistoryEntries: [SleepScoreHistoryEntry], userDateOfBirth: Date?,
        userChronoType: ChronoType?
    ) -> (historyEntry: SleepScoreHistoryEntry, score: SleepScore) {
        // 从每个已完成的结果构建历史记录条目，并将其持久化以供后续夜晚使用
        let historyEntry = result.toSleepScoreHistoryEntry()

        let score = SleepScoring.compute(
            result: result,
            history: recentHistoryEntries,
            dateOfBirth: userDateOfBirth,  // 可选，按年龄调整质量子评分
            chronoType: userChronoType  // 可选，选择时段子评分的窗口
        )

        print(
            "Sleep score: \(score.total) (duration=\(score.duration), quality=\(score.quality), routine=\(score.routine))"
        )
        return (historyEntry, score)
    }

    // MARK: - 实时事件 (live events)

    /// Dispatches every live event to a handler (the task runs until cancelled).
    @discardableResult
    func observeEvents() -> Task<Void, Never> {
        Task {
            for await events in await SleepCycleSdk.eventStream {
                for event in events {
                    switch event.type {
                    case .movement:
                        handleMovement(event)
                    case .snoring:
                        handleSnoring(event)
                    case .talking:
                        handleTalking(event)
                    case .coughing:
                        handleCoughing(event)
                    default:
                        handleOtherEvent(event)
                    }
                }
            }
        }
    }

    private func handleMovement(_ event: Event) { handledEvents.append(("movement", event)) }
    private func handleSnoring(_ event: Event) { handledEvents.append(("snoring", event)) }
    private func handleTalking(_ event: Event) { handledEvents.append(("talking", event)) }
    private func handleCoughing(_ event: Event) { handledEvents.append(("coughing", event)) }
    private func handleOtherEvent(_ event: Event) { handledEvents.append(("other", event)) }

    // MARK: - 实时呼吸频率 (live breathing rate)

    /// Prints every live breathing rate (the task runs until cancelled).
    @discardableResult
    func observeBreathingRate() -> Task<Void, Never> {
        Task {
            for await breathingRate in await SleepCycleSdk.breathingRateStream {
                print("Breathing rate: \(breathingRate.bpm) bpm (confidence: \(breathingRate.confidence))")
            }
        }
    }

    // MARK: - 实时睡眠分期 (live sleep stages)

    /// Prints every real-time stage prediction (the task runs until cancelled).
    @discardableResult
    func observeSleepStages() -> Task<Void, Never> {
        Task {
            for await prediction in await SleepCycleSdk.sleepStageStream {
                switch prediction.stage {
                case .awake:
                    print("Awake: \(prediction.interval)")
                case .light:
                    print("Light sleep: \(prediction.interval)")
                case .deep:
                    print("Deep sleep: \(prediction.interval)")
                case .rem:
                    print("REM sleep: \(prediction.interval)")
                }
                print("Deep sleep probability: \(prediction.probabilities.deep)")
            }
        }
    }

    // MARK: - 实时音频运行状况 (live audio health)

    /// Prints every audio-health change (the task runs until cancelled).
    @discardableResult
    func observeAudioHealth() -> Task<Void, Never> {
        Task {
            for await update in await SleepCycleSdk.audioHealthStream {
                switch update.status {
                case .healthy:
                    print("Audio input healthy")
                case .flatline:
                    print("Audio flatline detected")
                case .missingInput:
                    print("Audio input missing")
                }
            }
        }
    }

    // MARK: - 智能闹钟 (smart alarm)

    /// Starts a session on the microphone with a smart alarm in `windowStart...windowEnd`.
    func startAnalysisWithSmartAlarm(windowStart: Date, windowEnd: Date) async throws {
        let wakeupWindow = DateInterval(start: windowStart, end: windowEnd)

        try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true, useAccelerometer: true),
            smartAlarmConfig: SmartAlarmConfig(wakeupWindow: wakeupWindow)
        )
    }

    /// Rings the alarm whenever it triggers (the task runs until cancelled).
    @discardableResult
    func observeSmartAlarm() -> Task<Void, Never> {
        Task {
            for await event in await SleepCycleSdk.smartAlarmStream {
                switch event.type {
                case .armed:
                    print("Smart alarm armed")
                case .triggered(let reason):
                    switch reason {
                    case .optimalWakeUp, .userInteraction, .windowEnd:
                        ringAlarm()
                    }
                }
            }
        }
    }

    /// The app's alarm sound (the seed leaves it to the app).
    private func ringAlarm() {
        alarmRings += 1
    }

    /// Moves the running session's wake-up window to `newStart...newEnd`.
    func moveSmartAlarm(newStart: Date, newEnd: Date) async throws {
        // 调整唤醒时段
        try await SleepCycleSdk.updateSmartAlarm(
            config: SmartAlarmConfig(wakeupWindow: DateInterval(start: newStart, end: newEnd))
        )
    }

    /// Cancels the running session's alarm.
    func cancelSmartAlarm() async throws {
        // 取消闹钟
        try await SleepCycleSdk.updateSmartAlarm(config: nil)
    }

    // MARK: - 音频事件监听器 (audio event listener)

    /// Starts a session on the microphone with an audio listener.
    func startAnalysisWithAudioListener() async throws {
        let listener = MyAudioListener()
        try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true),
            eventListeners: [listener]
        )
    }

    // MARK: - 音频片段 (audio clips)

    /// Starts a session on the microphone that records clips of snoring and talking.
    func startAnalysisWithAudioClips() async throws {
        let listener = SleepCycleSdk.createAudioClipsProducer(
            audioClipsConfig: AudioClipsConfig(
                activeTypes: [
                    .snoring: EventTypeConfig(minDuration: 0.5),
                    .talking: EventTypeConfig(minDuration: 0.5),
                ],
                clipLength: 5.0
            ),
            receiver: MyAudioHandler()
        )

        try await SleepCycleSdk.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true),
            eventListeners: [listener]
        )
    }

    // MARK: - 多声道分析 (two sleepers)

    /// Starts the stereo microphone for two sleepers.
    func startStereoMicrophone() async throws {
        let dataSource = SleepCycleSdk.createLiveDataSource()

        try await SleepCycleSdk.startDataSource(
            using: dataSource,
            channelSeparationConfig: .bedSideMics
        )
    }

    /// Starts a session on each channel of the running stereo source.
    func startSessionOnEachChannel() async throws -> (primary: UUID, secondary: UUID) {
        let primarySessionId: UUID = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .primary,
            config: SleepAnalysisConfig(useAudio: true, useAccelerometer: true)
        )

        let secondarySessionId: UUID = try await SleepCycleSdk.startMultiChannelAnalysis(
            channel: .secondary,
            config: SleepAnalysisConfig(useAudio: true, useAccelerometer: false)
        )
        return (primarySessionId, secondarySessionId)
    }

    /// Stops each channel's session, keeping both results.
    func stopEachChannel(
        primarySessionId: UUID, secondarySessionId: UUID
    ) async throws
        -> (primary: AnalysisResult, secondary: AnalysisResult)
    {
        let primaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: primarySessionId)
        let secondaryResult = try await SleepCycleSdk.stopAnalysis(sessionId: secondarySessionId)
        return (primaryResult, secondaryResult)
    }

    /// Stops the stereo source once every session is stopped.
    func stopStereoSource() async {
        await SleepCycleSdk.stopDataSource()
    }
}

/// The seed's audio listener, verbatim; `batches` records what it was given so a test can check it.
class MyAudioListener: AudioEventListener {
    /// One call's summary: the audio's span and sample count, the probabilities and levels.
    struct Batch {
        let sessionId: UUID
        let sampleCount: Int
        let sampleRate: Int
        let span: DateInterval
        let probabilities: [EventType: Float]
        let started: [EventStartedInfo]
        let ended: [EventEndedInfo]
        let dbSpl: [Float]
    }

    private let lock = NSLock()
    private var recorded: [Batch] = []

    /// The batches received so far.
    var batches: [Batch] { lock.withLock { recorded } }

    func onAudioAnalysisBatchCompleted(
        sessionId: UUID,
        audioSamples: [Float],
        audioSampleRate: Int,
        audioStartTime: Date,
        audioEndTime: Date,
        audioProbability: [EventType: Float],
        eventsStarted: [EventStartedInfo],
        eventsEnded: [EventEndedInfo],
        dbSpl: [Float]
    ) {
        // Process audio samples and events
        let batch = Batch(
            sessionId: sessionId, sampleCount: audioSamples.count, sampleRate: audioSampleRate,
            span: DateInterval(start: audioStartTime, end: audioEndTime), probabilities: audioProbability,
            started: eventsStarted, ended: eventsEnded, dbSpl: dbSpl)
        lock.withLock { recorded.append(batch) }
    }
}

/// The receiver the seed's audio-clips sample hands its clips to (the seed assumes the app has one).
final class MyAudioHandler: AudioClipsReceiver {
    private let lock = NSLock()
    private var received: [AudioClip] = []

    /// The clips received so far.
    var clips: [AudioClip] { lock.withLock { received } }

    func onAudioClipProduced(_ clip: AudioClip) {
        lock.withLock { received.append(clip) }
    }
}

import Foundation

extension SleepCycleSdk {
    // MARK: - One sleeper

    /// Starts analysing one sleeper (`SleepAnalyzer.startAnalysis(config:at:using:eventListeners:smartAlarmConfig:)`).
    ///
    /// - Parameters:
    ///   - config: The sensors to use.
    ///   - at: The session's start; nil means the source's first sample for a recording, now for live capture.
    ///   - using: The data source; nil means live capture from the default ALSA device.
    ///   - eventListeners: Listeners that receive every analysed audio batch, on the analysis thread (`sending`:
    ///     handed over, or `Sendable`); all of a recording's once its `waitUntilFinished()` returns.
    ///   - smartAlarmConfig: A smart alarm for the session (needs the `smartAlarm` feature).
    /// - Returns: The session's identifier.
    /// - Throws: `.notInitialized`, `.analysisAlreadyRunning`, `.featureNotEnabled`, `.invalidConfiguration`,
    ///   `.emptyTimeRange` (`at` after the recording's end), `CancellationError` (nothing is left running), or the
    ///   data source's error when it cannot start.
    @discardableResult
    public static func startAnalysis(
        config: SleepAnalysisConfig, at: Date? = nil, using: (any DataSource)? = nil,
        eventListeners: sending [any AudioEventListener] = [], smartAlarmConfig: SmartAlarmConfig? = nil
    ) async throws -> UUID {
        try await analyzer.startAnalysis(
            config: config, at: at, using: using, eventListeners: eventListeners, smartAlarmConfig: smartAlarmConfig)
    }

    /// Stops the one-sleeper session (or the primary session of a stereo source) and returns its result.
    ///
    /// A cancelled call returns no result: it throws `CancellationError` and leaves the night interrupted and
    /// resumable (`SleepAnalyzer.stopAnalysis(at:)`). Once it returns, the listeners have received every batch the
    /// result covers, and they receive no more.
    ///
    /// - Parameter at: The session's end; nil means now for live capture and the end of the input for a recording.
    /// - Returns: The session's result, from its start to its end.
    /// - Throws: `.notInitialized`, `.analysisNotActive`, `.emptyTimeRange` (the range holds no data),
    ///   `CancellationError`.
    @discardableResult
    public static func stopAnalysis(at: Date? = nil) async throws -> AnalysisResult {
        try await analyzer.stopAnalysis(at: at)
    }

    /// Stops the session `sessionId` and returns its result.
    ///
    /// - Parameter sessionId: The identifier `startAnalysis` or `startMultiChannelAnalysis` returned.
    /// - Returns: The session's result, from its start to the latest analysed time.
    /// - Throws: `.notInitialized`, `.analysisNotActive` when no such session runs, `.emptyTimeRange` (the session
    ///   got no data), `CancellationError` (the night stays interrupted and resumable).
    @discardableResult
    public static func stopAnalysis(sessionId: UUID) async throws -> AnalysisResult {
        try await analyzer.stopAnalysis(sessionId: sessionId)
    }

    /// Interrupts the running analysis and returns each session's result so far, by channel; the sessions stay
    /// resumable (`SleepAnalyzer.interruptAnalysis()`).
    ///
    /// - Returns: The results so far.
    /// - Throws: `.notInitialized`, `.analysisNotActive`.
    public static func interruptAnalysis() async throws -> [AnalysisChannel: AnalysisResult] {
        try await analyzer.interruptAnalysis()
    }

    /// Replaces, adds (or with nil cancels) the smart alarm of the `.primary` session; a fired alarm is re-armed.
    ///
    /// - Parameter config: The new alarm, or nil to cancel it.
    /// - Throws: `.analysisNotActive`, `.featureNotEnabled`, `.invalidConfiguration`.
    public static func updateSmartAlarm(config: SmartAlarmConfig?) async throws {
        try await analyzer.updateSmartAlarm(config: config)
    }

    /// Tells the smart alarm that the sleeper touched the device (at `at`, or at the latest analysed time).
    ///
    /// - Parameter at: When the sleeper touched the device; nil for the latest analysed time.
    /// - Throws: `.analysisNotActive` without a primary session.
    public static func notifyUserInteraction(at: Date? = nil) async throws {
        try await analyzer.notifyUserInteraction(at: at)
    }

    /// The error the running (or last) data source ended with, if any.
    public static var dataSourceError: SleepCycleSdkError? {
        get async { await analyzer.dataSourceError }
    }

    // MARK: - Resume

    /// True when the journal holds sessions that were active when the host process ended, and no source runs.
    ///
    /// - Returns: True when `resumeAnalysis` has sessions to continue.
    public static func isResumePossible() async -> Bool {
        await analyzer.isResumePossible()
    }

    /// Continues the sessions that were active when the host process ended, on `using` (nil: live capture).
    ///
    /// - Parameters:
    ///   - using: The data source to continue on.
    ///   - eventListeners: Listeners for the primary session's audio batches (`sending`: handed over, or `Sendable`).
    /// - Returns: The resumed sessions, with their channels and persisted smart-alarm configurations.
    /// - Throws: `.notInitialized`, `.analysisAlreadyRunning`, `.noResumableSession`, `.storageFailure`,
    ///   `CancellationError`, or the source's error.
    @discardableResult
    public static func resumeAnalysis(
        using: (any DataSource)? = nil, eventListeners: sending [any AudioEventListener] = []
    ) async throws -> [ResumedSession] {
        try await analyzer.resumeAnalysis(using: using, eventListeners: eventListeners)
    }

    /// Ends the resumable sessions and discards their results, so `isResumePossible()` is false again.
    ///
    /// - Throws: `.analysisAlreadyRunning` while a data source runs, `.notInitialized`, `.storageFailure`.
    public static func clearActiveSessions() async throws {
        try await analyzer.clearActiveSessions()
    }

    // MARK: - Two sleepers

    /// Starts a stereo data source for two sleepers, one microphone each.
    ///
    /// - Parameters:
    ///   - using: The source (two channels: channel 0 is `.primary`, channel 1 `.secondary`).
    ///   - channelSeparationConfig: How events are assigned to the sleepers.
    /// - Throws: `.notInitialized`, `.featureNotEnabled("multiChannelAnalysis")`, `.analysisAlreadyRunning`,
    ///   `.invalidConfiguration`, or the source's error.
    public static func startDataSource(
        using: any DataSource, channelSeparationConfig: ChannelSeparationConfig = .bedSideMics
    ) async throws {
        try await analyzer.startDataSource(using: using, channelSeparationConfig: channelSeparationConfig)
    }

    /// Starts a session on one channel of the running stereo source.
    ///
    /// - Parameters:
    ///   - channel: `.primary` or `.secondary`.
    ///   - config: The sensors to use (a `.secondary` session analyses its channel's audio only).
    ///   - smartAlarmConfig: A smart alarm, on `.primary` only.
    /// - Returns: The session's identifier.
    /// - Throws: `.analysisNotActive`, `.analysisAlreadyRunning`, `.invalidConfiguration`, `.featureNotEnabled`.
    @discardableResult
    public static func startMultiChannelAnalysis(
        channel: AnalysisChannel, config: SleepAnalysisConfig, smartAlarmConfig: SmartAlarmConfig? = nil
    ) async throws -> UUID {
        try await analyzer.startMultiChannelAnalysis(
            channel: channel, config: config, smartAlarmConfig: smartAlarmConfig)
    }

    /// Stops the data source. Sessions still active are force-stopped and their results discarded.
    public static func stopDataSource() async {
        await analyzer.stopDataSource()
    }

    // MARK: - Live streams

    /// Batches of detected events, as they complete. Each call returns a new stream; any number may be open.
    public static var eventStream: AsyncStream<[Event]> {
        get async { analyzer.eventStream }
    }

    /// Breathing-rate measurements, about every 30 seconds while breathing is heard or felt.
    public static var breathingRateStream: AsyncStream<BreathingRate> {
        get async { analyzer.breathingRateStream }
    }

    /// One real-time prediction per 30-second epoch (needs the `realTimeSleepStaging` feature).
    public static var sleepStageStream: AsyncStream<SleepStagePrediction> {
        get async { analyzer.sleepStageStream }
    }

    /// Changes of the audio input's health; while a session runs, a new stream starts with the current status.
    public static var audioHealthStream: AsyncStream<AudioHealthUpdate> {
        get async { analyzer.audioHealthStream }
    }

    /// Smart-alarm life-cycle events; while a session runs, a new stream starts with the alarm's latest event.
    public static var smartAlarmStream: AsyncStream<SmartAlarmEvent> {
        get async { analyzer.smartAlarmStream }
    }
}

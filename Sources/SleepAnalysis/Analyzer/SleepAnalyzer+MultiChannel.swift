import Foundation

extension SleepAnalyzer {
    // MARK: - Two sleepers

    /// Starts a stereo data source for two sleepers, one microphone each; sessions are then started per channel
    /// with `startMultiChannelAnalysis(channel:config:smartAlarmConfig:)`.
    ///
    /// - Parameters:
    ///   - using: The source (two channels: channel 0 is `.primary`, channel 1 `.secondary`).
    ///   - channelSeparationConfig: How events are assigned to the sleepers.
    /// - Throws: `.notInitialized`, `.featureNotEnabled("multiChannelAnalysis")`, `.analysisAlreadyRunning`,
    ///   `.invalidConfiguration` (bad separation parameters, or a source that is not stereo), `CancellationError`
    ///   when the calling task is cancelled (the source is stopped again), or the source's error.
    public func startDataSource(
        using: any DataSource, channelSeparationConfig: ChannelSeparationConfig = .bedSideMics
    ) async throws {
        try await startStereoSource(using, separation: channelSeparationConfig)
    }

    /// Starts a session on one channel of the running stereo source.
    ///
    /// - Parameters:
    ///   - channel: `.primary` or `.secondary`.
    ///   - config: The sensors to use. The source's accelerometer and heart-rate readings belong to the primary
    ///     sleeper: a `.secondary` session analyses its channel's audio only.
    ///   - smartAlarmConfig: A smart alarm, on `.primary` only.
    /// - Returns: The session's identifier.
    /// - Throws: `.analysisNotActive` without a running stereo source, `.analysisAlreadyRunning` when the channel
    ///   has a session, `.invalidConfiguration` for an alarm on `.secondary`, `.featureNotEnabled`,
    ///   `CancellationError` when the calling task is cancelled (no session is started).
    @discardableResult
    public func startMultiChannelAnalysis(
        channel: AnalysisChannel, config: SleepAnalysisConfig, smartAlarmConfig: SmartAlarmConfig? = nil
    ) async throws -> UUID {
        try await startChannelSession(channel: channel, config: config, smartAlarmConfig: smartAlarmConfig)
    }

    /// Stops the data source. Sessions still active are force-stopped and their results discarded; stop each
    /// session first to keep its result.
    public func stopDataSource() async {
        await stopSourceDiscardingSessions()
    }
}

extension SleepAnalyzer {
    func startStereoSource(_ source: any DataSource, separation: ChannelSeparationConfig) async throws {
        let context = try requireContext()
        try Task.checkCancellation()
        try require(\.multiChannelAnalysis, named: "multiChannelAnalysis")
        guard pipeline == nil else { throw SleepCycleSdkError.analysisAlreadyRunning }
        try separation.validate()
        guard source.channelCount == 2 else {
            throw SleepCycleSdkError.invalidConfiguration(
                "multi-channel analysis needs a stereo source (two microphones); this one has \(source.channelCount) channel(s)"
            )
        }
        let pipeline = try AnalysisPipeline(
            source: source, layout: .perChannel, logger: context.logger, clock: clock,
            stereo: EngineFactory(context: context, clock: clock).stereoSetup(separation: separation))
        do {
            try pipeline.startSource()
            try Task.checkCancellation()
        } catch {
            await pipeline.shutdown()
            throw error
        }
        // A live source knows its channel count only once the device is open.
        guard source.channelCount == 2 else {
            await pipeline.shutdown()
            throw SleepCycleSdkError.invalidConfiguration(
                "multi-channel analysis needs a stereo source; the device delivers \(source.channelCount) channel(s)")
        }
        self.pipeline = pipeline
        pipelineLayout = .perChannel
        channelSeparation = separation
        lastSourceError = nil
        state = .running
    }

    func startChannelSession(
        channel: AnalysisChannel, config: SleepAnalysisConfig, smartAlarmConfig: SmartAlarmConfig?
    ) async throws -> UUID {
        let context = try requireContext()
        try Task.checkCancellation()
        try require(\.multiChannelAnalysis, named: "multiChannelAnalysis")
        guard let pipeline, pipelineLayout == .perChannel else { throw SleepCycleSdkError.analysisNotActive }
        guard !activeSessions.values.contains(where: { $0.channel == channel }) else {
            throw SleepCycleSdkError.analysisAlreadyRunning
        }
        if smartAlarmConfig != nil && channel != .primary {
            throw SleepCycleSdkError.invalidConfiguration("a smart alarm is supported on the primary channel only")
        }
        try validate(config: config, smartAlarm: smartAlarmConfig, channel: channel)
        let startTime = try await pipeline.perform { core in core.channelSessionStart }
        let session = SessionDescriptor(
            sessionId: UUID(), channel: channel, config: config, smartAlarmConfig: smartAlarmConfig,
            startTime: pipeline.source.isFinite ? startTime : max(startTime, clock.now))
        try await addSession(session, to: pipeline, context: context, listeners: ListenerBox(listeners: []))
        activeSessions[session.sessionId] = session
        return session.sessionId
    }

    func stopSourceDiscardingSessions() async {
        guard let pipeline else { return }
        let discarded = Array(activeSessions.keys)
        _ = try? await pipeline.perform { core in
            for id in discarded { _ = core.remove(id) }
        }
        if let context {
            for id in discarded { context.journal.finishQuietly(id, logger: context.logger) }
        }
        await shutDownPipeline()
    }
}

import Foundation

extension SleepAnalyzer {
    // MARK: - One sleeper

    /// Starts analysing one sleeper.
    ///
    /// - Parameters:
    ///   - config: The sensors to use.
    ///   - at: The session's start; nil (the default) means the source's first sample for a recording, now for
    ///     live capture. Data before it is not analysed.
    ///   - using: The data source; nil means live capture from the default ALSA device.
    ///   - eventListeners: Listeners that receive every analysed audio batch.
    ///   - smartAlarmConfig: A smart alarm for the session (needs the `smartAlarm` feature).
    /// - Returns: The session's identifier.
    /// - Throws: `.notInitialized`, `.analysisAlreadyRunning`, `.featureNotEnabled`, `.invalidConfiguration`, or
    ///   the data source's error when it cannot start.
    @discardableResult
    public nonisolated func startAnalysis(
        config: SleepAnalysisConfig, at: Date? = nil, using: (any DataSource)? = nil,
        eventListeners: [any AudioEventListener] = [], smartAlarmConfig: SmartAlarmConfig? = nil
    ) async throws -> UUID {
        // The listeners are called on the analysis thread only; the box carries them there.
        let listeners = ListenerBox(listeners: eventListeners)
        return try await startSingleSession(
            config: config, at: at, source: using, listeners: listeners, smartAlarmConfig: smartAlarmConfig)
    }

    /// Stops the one-sleeper session (or the primary session of a stereo source) and returns its result.
    ///
    /// - Parameter at: The session's end; nil means now for live capture and the end of the input for a
    ///   recording (call `waitUntilFinished()` on the source first to get the whole night).
    /// - Returns: The session's result, from its start to its end.
    /// - Throws: `.notInitialized`, `.analysisNotActive`.
    @discardableResult
    public func stopAnalysis(at: Date? = nil) async throws -> AnalysisResult {
        try await stopPrimarySession(at: at)
    }

    /// Stops the session `sessionId` and returns its result.
    ///
    /// - Parameter sessionId: The identifier `startAnalysis` or `startMultiChannelAnalysis` returned.
    /// - Returns: The session's result, from its start to the latest analysed time.
    /// - Throws: `.notInitialized`, `.analysisNotActive` when no such session runs.
    @discardableResult
    public func stopAnalysis(sessionId: UUID) async throws -> AnalysisResult {
        try await stopSession(sessionId, at: nil)
    }

    /// Replaces, adds (or with nil cancels) the smart alarm of the `.primary` session; a fired alarm is re-armed.
    ///
    /// - Parameter config: The new alarm, or nil to cancel it.
    /// - Throws: `.analysisNotActive` without a primary session, `.featureNotEnabled` without `smartAlarm`,
    ///   `.invalidConfiguration` for an empty window.
    public func updateSmartAlarm(config: SmartAlarmConfig?) async throws {
        try await updatePrimarySmartAlarm(config)
    }

    /// Tells the smart alarm that the sleeper touched the device (at `at`, or at the latest analysed time).
    /// Inside the wake-up window the alarm fires with `.userInteraction`.
    ///
    /// - Parameter at: When the sleeper touched the device; nil for the latest analysed time.
    /// - Throws: `.analysisNotActive` without a primary session.
    public func notifyUserInteraction(at: Date? = nil) async throws {
        try await notifyPrimaryUserInteraction(at: at)
    }

    /// The error the running (or last) data source ended with, if any: a malformed row, a truncated file, a
    /// vanished device. Results still cover everything analysed before it.
    public var dataSourceError: SleepCycleSdkError? { lastSourceError }
}

extension SleepAnalyzer {
    func startSingleSession(
        config: SleepAnalysisConfig, at: Date?, source: (any DataSource)?, listeners: ListenerBox,
        smartAlarmConfig: SmartAlarmConfig?
    ) async throws -> UUID {
        let context = try requireContext()
        guard pipeline == nil else { throw SleepCycleSdkError.analysisAlreadyRunning }
        try validate(config: config, smartAlarm: smartAlarmConfig, channel: .primary)
        let source = source ?? LiveDataSource()
        let pipeline = try AnalysisPipeline(source: source, layout: .mixdown, logger: context.logger, clock: clock)
        let startTime = at ?? (source.isFinite ? source.startTime : clock.now)
        let sessionId = UUID()
        let session = SessionDescriptor(
            sessionId: sessionId, channel: .primary, config: config, smartAlarmConfig: smartAlarmConfig,
            startTime: startTime)
        do {
            try await addSession(session, to: pipeline, context: context, listeners: listeners)
            try pipeline.startSource()
        } catch {
            // A failed start leaves no thread, source or journal entry behind.
            await pipeline.shutdown()
            context.journal.finishQuietly(sessionId, logger: context.logger)
            throw error
        }
        self.pipeline = pipeline
        pipelineLayout = .mixdown
        activeSessions[sessionId] = session
        lastSourceError = nil
        state = .running
        context.telemetry.analytics("session_started", sessionId: sessionId)
        return sessionId
    }

    /// Checks a session's configuration against the licence.
    func validate(config: SleepAnalysisConfig, smartAlarm: SmartAlarmConfig?, channel: AnalysisChannel) throws {
        guard config.useAudio || config.useAccelerometer || config.useHeartRate else {
            throw SleepCycleSdkError.invalidConfiguration(
                "the session uses no sensor: enable audio, accelerometer or heart rate")
        }
        if let smartAlarm {
            try require(\.smartAlarm, named: "smartAlarm")
            guard channel == .primary else {
                throw SleepCycleSdkError.invalidConfiguration("a smart alarm is supported on the primary channel only")
            }
            guard smartAlarm.wakeupWindow.duration > 0 else {
                throw SleepCycleSdkError.invalidConfiguration("the wake-up window is empty")
            }
        }
    }

    /// Creates the session's engines on the pipeline thread, journals the session and registers it.
    func addSession(
        _ session: SessionDescriptor, to pipeline: AnalysisPipeline, context: AnalyzerContext, listeners: ListenerBox,
        restoring journalState: RestoredSessionState? = nil
    ) async throws {
        if journalState == nil {
            try context.journal.begin(session, features: context.features, source: pipeline.source)
            if let channelSeparation {
                try context.journal.appendBatch(
                    [.snapshot(channelSeparation, kind: JournalKind.channelSeparation, time: session.startTime)],
                    sessionId: session.sessionId)
            }
        }
        let factory = EngineFactory(context: context, clock: clock)
        let output = streams
        try await pipeline.perform { core in
            let processor = factory.makeProcessor(
                for: session, output: output, listeners: listeners, restoring: journalState,
                arbiter: core.stereoArbiter)
            core.add(processor)
        }
    }

    func stopPrimarySession(at: Date?) async throws -> AnalysisResult {
        _ = try requireContext()
        guard let primary = activeSessions.values.first(where: { $0.channel == .primary }) else {
            throw SleepCycleSdkError.analysisNotActive
        }
        return try await stopSession(primary.sessionId, at: at)
    }

    func stopSession(_ sessionId: UUID, at: Date?) async throws -> AnalysisResult {
        let context = try requireContext()
        guard let pipeline, activeSessions[sessionId] != nil else { throw SleepCycleSdkError.analysisNotActive }
        let end = at ?? (pipeline.source.isFinite ? nil : clock.now)
        let outcome = try await pipeline.perform { core -> (AnalysisResult?, SleepCycleSdkError?) in
            guard let session = core.remove(sessionId) else { return (nil, core.inputError ?? core.sourceError) }
            var result = session.finish(at: end)
            result.warnings = core.inputWarnings(for: session)
            return (result, core.inputError ?? core.sourceError)
        }
        activeSessions[sessionId] = nil
        if let error = outcome.1 { lastSourceError = error }
        if activeSessions.isEmpty && pipelineLayout == .mixdown { await shutDownPipeline() }
        guard let result = outcome.0 else { throw SleepCycleSdkError.analysisNotActive }
        context.journal.finishQuietly(sessionId, logger: context.logger)
        context.telemetry.analytics("session_stopped", sessionId: sessionId)
        return result
    }

    /// Stops the data source and the pipeline; sessions still active are dropped from memory (their journal
    /// entries stay, so they remain resumable unless the caller discards them).
    func shutDownPipeline() async {
        guard let pipeline else { return }
        let error = try? await pipeline.perform { core in core.inputError ?? core.sourceError }
        if let error { lastSourceError = error }
        await pipeline.shutdown()
        self.pipeline = nil
        pipelineLayout = nil
        channelSeparation = nil
        activeSessions.removeAll()
        streams.sessionsEnded()
        state = context == nil ? .uninitialized : .initialized
    }

    func updatePrimarySmartAlarm(_ config: SmartAlarmConfig?) async throws {
        let context = try requireContext()
        guard let pipeline, var primary = activeSessions.values.first(where: { $0.channel == .primary }) else {
            throw SleepCycleSdkError.analysisNotActive
        }
        try require(\.smartAlarm, named: "smartAlarm")
        if let config, config.wakeupWindow.duration <= 0 {
            throw SleepCycleSdkError.invalidConfiguration("the wake-up window is empty")
        }
        let sessionId = primary.sessionId
        let factory = EngineFactory(context: context, clock: clock)
        try await pipeline.perform { core in
            guard let session = core.sessions[sessionId] else { return }
            if !session.updateSmartAlarm(config) {
                session.installSmartAlarm(factory.makeSmartAlarm(sessionId: sessionId, configuration: config))
            }
        }
        primary.smartAlarmConfig = config
        activeSessions[sessionId] = primary
        try context.journal.updateSmartAlarm(sessionId: sessionId, config: config)
    }

    func notifyPrimaryUserInteraction(at: Date?) async throws {
        _ = try requireContext()
        guard let pipeline, let primary = activeSessions.values.first(where: { $0.channel == .primary }) else {
            throw SleepCycleSdkError.analysisNotActive
        }
        let sessionId = primary.sessionId
        try await pipeline.perform { core in core.sessions[sessionId]?.notifyUserInteraction(at: at) }
    }
}

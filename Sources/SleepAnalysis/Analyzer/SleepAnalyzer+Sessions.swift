import Foundation

extension SleepAnalyzer {
    // MARK: - One sleeper

    /// Starts analysing one sleeper.
    ///
    /// The listeners are called on the analysis thread, so they are `sending`: the compiler accepts a listener
    /// the caller hands over and does not touch again, or one that is `Sendable` (a final class whose state is in
    /// a `Mutex`, an actor-free value). A non-`Sendable` listener the caller keeps using is rejected.
    ///
    /// No batch is lost on its way to them: once the source's `waitUntilFinished()` returns, every batch of its
    /// input has been analysed and handed to every listener, and once `stopAnalysis` returns, every batch its result
    /// covers has been, and none comes later. A listener may start a call into the analyzer from its callback (in
    /// a `Task`, returning at once) but must not block the analysis thread waiting for one: the call needs that
    /// thread.
    ///
    /// A task cancelled before or during the call gets `CancellationError`, and nothing is left running: no
    /// source, thread or journaled session.
    ///
    /// - Parameters:
    ///   - config: The sensors to use.
    ///   - at: The session's start; nil (the default) means the source's first sample for a recording, now for
    ///     live capture. Data before it is not analysed.
    ///   - using: The data source; nil means live capture from the default ALSA device.
    ///   - eventListeners: Listeners that receive every analysed audio batch, on the analysis thread.
    ///   - smartAlarmConfig: A smart alarm for the session (needs the `smartAlarm` feature).
    /// - Returns: The session's identifier.
    /// - Throws: `.notInitialized`, `.analysisAlreadyRunning`, `.featureNotEnabled`, `.invalidConfiguration`,
    ///   `.emptyTimeRange` when `at` is at or after the end of a recording whose length is known (an audio file
    ///   without sensor files), `CancellationError` when the calling task is cancelled, or the data source's error
    ///   when it cannot start.
    @discardableResult
    public nonisolated func startAnalysis(
        config: SleepAnalysisConfig, at: Date? = nil, using: (any DataSource)? = nil,
        eventListeners: sending [any AudioEventListener] = [], smartAlarmConfig: SmartAlarmConfig? = nil
    ) async throws -> UUID {
        // The listeners were sent: only the analysis thread calls them from now on; the box carries them there.
        let listeners = ListenerBox(listeners: eventListeners)
        return try await startSingleSession(
            config: config, at: at, source: using, listeners: listeners, smartAlarmConfig: smartAlarmConfig)
    }

    /// Stops the one-sleeper session (or the primary session of a stereo source) and returns its result.
    ///
    /// A result always holds data: a stop that would return an empty night throws `.emptyTimeRange` instead.
    /// When the calling task is cancelled (for example while it waited for the source), the call throws
    /// `CancellationError` and returns no result: the analysis is interrupted as by `interruptAnalysis()` (the
    /// source stops, the sessions stay open in the journal) and `resumeAnalysis(using:eventListeners:)` continues
    /// the night later.
    ///
    /// Once it returns, the listeners have received every batch the result covers, and they receive no more.
    ///
    /// - Parameter at: The session's end; nil means now for live capture and the end of the input for a
    ///   recording (call `waitUntilFinished()` on the source first to get the whole night).
    /// - Returns: The session's result, from its start to its end.
    /// - Throws: `.notInitialized`, `.analysisNotActive`, `.emptyTimeRange` when `at` is not after the session's
    ///   start (the session goes on) or when a recording ended without giving the session any data (it started
    ///   after the recording's end; the session is ended without a result, or with the source's error when the
    ///   source failed before the session got any data), `CancellationError` when the calling task is cancelled.
    @discardableResult
    public func stopAnalysis(at: Date? = nil) async throws -> AnalysisResult {
        try await interruptIfCancelled()
        return try await stopPrimarySession(at: at)
    }

    /// Stops the session `sessionId` and returns its result.
    ///
    /// As for `stopAnalysis(at:)`, a result always holds data and a cancelled call returns none: it throws
    /// `CancellationError` and leaves every session of the source interrupted and resumable. Once it returns, the
    /// session's listeners have received every batch the result covers, and they receive no more.
    ///
    /// - Parameter sessionId: The identifier `startAnalysis` or `startMultiChannelAnalysis` returned.
    /// - Returns: The session's result, from its start to the latest analysed time.
    /// - Throws: `.notInitialized`, `.analysisNotActive` when no such session runs, `.emptyTimeRange` when a
    ///   recording ended without giving the session any data (the session is ended without a result; the
    ///   source's error instead when it failed first), `CancellationError` when the calling task is cancelled.
    @discardableResult
    public func stopAnalysis(sessionId: UUID) async throws -> AnalysisResult {
        try await interruptIfCancelled()
        return try await stopSession(sessionId, at: nil)
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
        try Task.checkCancellation()
        guard pipeline == nil else { throw SleepCycleSdkError.analysisAlreadyRunning }
        try validate(config: config, smartAlarm: smartAlarmConfig, channel: .primary)
        let source = source ?? LiveDataSource()
        if let at, let recordingEnd = (source as? FileDataSource)?.knownRecordingEnd, at >= recordingEnd {
            throw SleepCycleSdkError.emptyTimeRange(
                "the session would start at \(at.formatted(.iso8601)), at or after the end of the recording "
                    + "(\(recordingEnd.formatted(.iso8601))): start it before the recording's end")
        }
        let pipeline = try AnalysisPipeline(source: source, layout: .mixdown, logger: context.logger, clock: clock)
        let startTime = at ?? (source.isFinite ? source.startTime : clock.now)
        let sessionId = UUID()
        let session = SessionDescriptor(
            sessionId: sessionId, channel: .primary, config: config, smartAlarmConfig: smartAlarmConfig,
            startTime: startTime)
        do {
            try await addSession(session, to: pipeline, context: context, listeners: listeners)
            try pipeline.startSource()
            // A task cancelled meanwhile never learns the session's id: the start is undone.
            try Task.checkCancellation()
        } catch {
            // A failed or cancelled start leaves no thread, source or journal entry behind.
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
        let source = pipeline.source
        try await pipeline.perform { core in
            let processor = factory.makeProcessor(
                for: session, output: output, listeners: listeners, restoring: journalState,
                arbiter: core.stereoArbiter, source: source)
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
        guard let pipeline, let descriptor = activeSessions[sessionId] else {
            throw SleepCycleSdkError.analysisNotActive
        }
        if let at, at <= descriptor.startTime {
            throw SleepCycleSdkError.emptyTimeRange(
                "the session would end at \(at.formatted(.iso8601)), not after its start "
                    + "(\(descriptor.startTime.formatted(.iso8601))); the session goes on")
        }
        let end = at ?? (pipeline.source.isFinite ? nil : clock.now)
        // A recording that ended without giving the session any data after its start (the session started after
        // the recording's end) leaves no night to return. A replay stopped before its first batch still returns
        // the result so far, and live sessions end at the clock's time whatever arrived.
        let needsData = pipeline.source.isFinite
        let outcome = try await pipeline.perform { core -> SessionStopOutcome in
            let sourceError = core.inputError ?? core.sourceError
            guard let session = core.remove(sessionId) else { return .notActive(sourceError: sourceError) }
            if needsData && core.sourceEnded && session.dataTime <= session.startTime {
                return .noData(sourceError: sourceError)
            }
            var result = session.finish(at: end)
            result.warnings = core.inputWarnings(for: session) + result.warnings
            return .finished(result, sourceError: sourceError)
        }
        activeSessions[sessionId] = nil
        if let error = outcome.sourceError { lastSourceError = error }
        if activeSessions.isEmpty && pipelineLayout == .mixdown { await shutDownPipeline() }
        switch outcome {
        case .notActive:
            throw SleepCycleSdkError.analysisNotActive
        case .noData(let sourceError):
            // Nothing to keep or resume: the session leaves the journal. A source that failed before the session got
            // any data explains the empty range better than the range does.
            context.journal.finishQuietly(sessionId, logger: context.logger)
            if let sourceError { throw sourceError }
            throw SleepCycleSdkError.emptyTimeRange(
                "the session starting at \(descriptor.startTime.formatted(.iso8601)) got no data: the recording "
                    + "ended before it; the session ended without a result")
        case .finished(let result, _):
            context.journal.finishQuietly(sessionId, logger: context.logger)
            context.telemetry.analytics("session_stopped", sessionId: sessionId)
            return result
        }
    }

    /// Throws `CancellationError` when the calling task is cancelled, after interrupting the running analysis: its
    /// source and pipeline stop, and its sessions stay open in the journal (resumable), as after
    /// `interruptAnalysis()`, but no result is made.
    func interruptIfCancelled() async throws {
        guard Task.isCancelled else { return }
        if pipeline != nil {
            context?.logger.info("the calling task was cancelled: the analysis stops and its sessions stay resumable")
            await shutDownPipeline()
        }
        throw CancellationError()
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

/// What stopping a session on the pipeline thread came to, with the error the source ended with, if any.
enum SessionStopOutcome: Sendable {
    /// The session was not on the pipeline.
    case notActive(sourceError: SleepCycleSdkError?)
    /// The source ended without giving the session any data after its start.
    case noData(sourceError: SleepCycleSdkError?)
    /// The session's result.
    case finished(AnalysisResult, sourceError: SleepCycleSdkError?)

    /// The error the source ended with, if any.
    var sourceError: SleepCycleSdkError? {
        switch self {
        case .notActive(let error), .noData(let error), .finished(_, let error): error
        }
    }
}

import Foundation

extension SleepCycleSdk {
    // MARK: - Resume

    /// True when the journal holds sessions that were active when the host process ended (crash, kill, restart)
    /// and no data source runs now.
    ///
    /// - Returns: True when `resumeAnalysis` has sessions to continue.
    public static func isResumePossible() async -> Bool {
        await shared.hasResumableSessions()
    }

    /// Continues the sessions that were active when the host process ended, on `using` (nil: live capture from
    /// the default ALSA device). Each session's final result covers the night before and after the interruption;
    /// data before each session's last journaled epoch is skipped.
    ///
    /// - Parameters:
    ///   - using: The data source to continue on.
    ///   - eventListeners: Listeners for the primary session's audio batches.
    /// - Returns: The resumed sessions, with their channels and persisted smart-alarm configurations.
    /// - Throws: `.notInitialized`, `.analysisAlreadyRunning`, `.noResumableSession`, `.storageFailure`, or the
    ///   source's error.
    @discardableResult
    public static func resumeAnalysis(
        using: (any DataSource)? = nil, eventListeners: [any AudioEventListener] = []
    ) async throws -> [ResumedSession] {
        let listeners = ListenerBox(listeners: eventListeners)
        return try await shared.resumeSessions(source: using, listeners: listeners)
    }

    /// Ends the resumable sessions and discards their results, so `isResumePossible()` is false again.
    ///
    /// - Throws: `.analysisAlreadyRunning` while a data source runs, `.notInitialized`, `.storageFailure`.
    public static func clearActiveSessions() async throws {
        try await shared.discardResumableSessions()
    }
}

extension SleepCycleSdk {
    func hasResumableSessions() -> Bool {
        guard let context, pipeline == nil else { return false }
        return ((try? context.journal.activeSessions()) ?? []).isEmpty == false
    }

    func resumeSessions(source: (any DataSource)?, listeners: ListenerBox) async throws -> [ResumedSession] {
        let context = try requireContext()
        guard pipeline == nil else { throw SleepCycleSdkError.analysisAlreadyRunning }
        let journaled = try context.journal.activeSessions()
        guard !journaled.isEmpty else { throw SleepCycleSdkError.noResumableSession }
        // Sessions of a two-sleeper source journaled its channel separation (and only they did).
        let journaledSeparation = try journaled.lazy.compactMap {
            try context.journal.latest(
                of: ChannelSeparationConfig.self, kind: JournalKind.channelSeparation, sessionId: $0.sessionId)
        }.first
        let twoSleepers = journaledSeparation != nil || journaled.contains { $0.channel == .secondary }
        if twoSleepers { try require(\.multiChannelAnalysis, named: "multiChannelAnalysis") }
        let source = source ?? LiveDataSource()
        let layout: SignalLayout = twoSleepers ? .perChannel : .mixdown
        let separation = journaledSeparation ?? .bedSideMics
        let pipeline = try AnalysisPipeline(
            source: source, layout: layout, streams: Self.streams, logger: context.logger,
            stereo: twoSleepers ? StereoSetup(separation: separation, factory: EngineFactory(context: context)) : nil)
        var resumed: [ResumedSession] = []
        var sessions: [ActiveSession] = []
        for record in journaled {
            let restored = try JournaledSessionState(session: record, journal: context.journal)
            let session = ActiveSession(
                sessionId: record.sessionId, channel: record.channel, config: record.config,
                smartAlarmConfig: record.smartAlarmConfig, startTime: record.startTime)
            try await addSession(
                session, to: pipeline, context: context,
                listeners: record.channel == .primary ? listeners : ListenerBox(listeners: []), restoring: restored)
            sessions.append(session)
            resumed.append(record.resumedSession)
        }
        do {
            try pipeline.startSource()
        } catch {
            await pipeline.shutdown()
            throw error
        }
        self.pipeline = pipeline
        pipelineLayout = layout
        channelSeparation = twoSleepers ? separation : nil
        for session in sessions { activeSessions[session.sessionId] = session }
        lastSourceError = nil
        state = .running
        context.telemetry.analytics("sessions_resumed", attributes: ["count": "\(resumed.count)"])
        return resumed
    }

    func discardResumableSessions() async throws {
        let context = try requireContext()
        guard pipeline == nil else { throw SleepCycleSdkError.analysisAlreadyRunning }
        try context.journal.discardAll()
    }
}

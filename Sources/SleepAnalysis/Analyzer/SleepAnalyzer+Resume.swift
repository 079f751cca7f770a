import Foundation

extension SleepAnalyzer {
    // MARK: - Resume

    /// True when the journal holds sessions that were active when the host process ended (crash, kill, restart)
    /// and no data source runs now.
    ///
    /// - Returns: True when `resumeAnalysis` has sessions to continue.
    public func isResumePossible() -> Bool {
        hasResumableSessions()
    }

    /// Continues the sessions that were active when the host process ended, on `using` (nil: live capture from
    /// the default ALSA device). Each session's final result covers the night before and after the interruption;
    /// data before each session's last journaled epoch is skipped.
    ///
    /// A task cancelled before or during the call gets `CancellationError`; the source is stopped again and the
    /// sessions stay resumable.
    ///
    /// - Parameters:
    ///   - using: The data source to continue on.
    ///   - eventListeners: Listeners for the primary session's audio batches, called on the analysis thread (sent:
    ///     see `startAnalysis(config:at:using:eventListeners:smartAlarmConfig:)`).
    /// - Returns: The resumed sessions, with their channels and persisted smart-alarm configurations.
    /// - Throws: `.notInitialized`, `.analysisAlreadyRunning`, `.noResumableSession`, `.storageFailure` (also when
    ///   `initialize` found the journal damaged and renamed it aside: its sessions are lost), `CancellationError`,
    ///   or the source's error.
    @discardableResult
    public nonisolated func resumeAnalysis(
        using: (any DataSource)? = nil, eventListeners: sending [any AudioEventListener] = []
    ) async throws -> [ResumedSession] {
        // The listeners were sent: only the analysis thread calls them from now on; the box carries them there.
        let listeners = ListenerBox(listeners: eventListeners)
        return try await resumeSessions(source: using, listeners: listeners)
    }

    /// Ends the resumable sessions and discards their results, so `isResumePossible()` is false again.
    ///
    /// - Throws: `.analysisAlreadyRunning` while a data source runs, `.notInitialized`, `.storageFailure`.
    public func clearActiveSessions() async throws {
        try await discardResumableSessions()
    }
}

extension SleepAnalyzer {
    func hasResumableSessions() -> Bool {
        guard let context, pipeline == nil else { return false }
        return ((try? context.journal.activeSessions()) ?? []).isEmpty == false
    }

    func resumeSessions(source: (any DataSource)?, listeners: ListenerBox) async throws -> [ResumedSession] {
        let context = try requireContext()
        try Task.checkCancellation()
        guard pipeline == nil else { throw SleepCycleSdkError.analysisAlreadyRunning }
        let journaled = try context.journal.activeSessions()
        guard !journaled.isEmpty else {
            if let quarantined = context.quarantinedJournal {
                throw SleepCycleSdkError.storageFailure(
                    "nothing to resume: the session journal \(quarantined); the sessions it held are lost")
            }
            throw SleepCycleSdkError.noResumableSession
        }
        // Sessions of a two-sleeper source journaled its channel separation (and only they did).
        let journaledSeparation = try journaled.lazy.compactMap {
            try context.journal.latest(
                of: ChannelSeparationConfig.self, kind: JournalKind.channelSeparation, sessionId: $0.sessionId)
        }.first
        let twoSleepers = journaledSeparation != nil || journaled.contains { $0.channel == .secondary }
        if twoSleepers { try require(\.multiChannelAnalysis, named: "multiChannelAnalysis") }
        let source = source ?? LiveDataSource()
        try Self.checkInputs(of: journaled, against: source)
        let layout: SignalLayout = twoSleepers ? .perChannel : .mixdown
        let separation = journaledSeparation ?? .bedSideMics
        let pipeline = try AnalysisPipeline(
            source: source, layout: layout, logger: context.logger, clock: clock,
            stereo: twoSleepers
                ? EngineFactory(context: context, clock: clock).stereoSetup(separation: separation) : nil)
        var resumed: [ResumedSession] = []
        var sessions: [SessionDescriptor] = []
        do {
            for record in journaled {
                let restored = try RestoredSessionState(session: record, journal: context.journal)
                let session = SessionDescriptor(
                    sessionId: record.sessionId, channel: record.channel, config: record.config,
                    smartAlarmConfig: record.smartAlarmConfig, startTime: record.startTime)
                try await addSession(
                    session, to: pipeline, context: context,
                    listeners: record.channel == .primary ? listeners : ListenerBox(listeners: []),
                    restoring: restored)
                sessions.append(session)
                resumed.append(record.resumedSession)
            }
            try pipeline.startSource()
            try Task.checkCancellation()
        } catch {
            // A failed or cancelled resume leaves no thread or source behind; the sessions stay in the journal.
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

extension SleepAnalyzer {
    /// Refuses to resume sessions on input other than the one they were journaled with: another start time, file,
    /// file length or content, a sensor added or missing, a live device for a replay.
    ///
    /// - Throws: `.invalidInput` saying what differs.
    static func checkInputs(of sessions: [JournalSession], against source: any DataSource) throws {
        guard let given = source.fingerprint else { return }
        for session in sessions {
            guard let journaled = session.inputFingerprint else { continue }
            // A new recording (other file names, same sensors) continues the session; the same files with another
            // length, content or start time would mix two nights.
            let names = { (print: DataSourceFingerprint) in print.inputs.mapValues { $0.prefix { $0 != "," } } }
            if journaled.kind == given.kind, Set(journaled.inputs.keys) == Set(given.inputs.keys),
                names(journaled) != names(given)
            {
                continue
            }
            let differences = journaled.differences(from: given)
            guard !differences.isEmpty else { continue }
            throw SleepCycleSdkError.invalidInput(
                "cannot resume session \(session.sessionId.uuidString) on other input: "
                    + differences.joined(separator: "; ")
                    + ". Resume with the same inputs and start time, or discard it (clearActiveSessions)")
        }
    }
}

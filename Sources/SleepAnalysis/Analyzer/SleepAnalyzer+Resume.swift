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
        try Self.checkInputs(of: journaled, against: source, journal: context.journal)
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
    /// The longest pause a new recording may leave after the journaled night's last epoch and still continue it.
    static let maximumContinuationGap: TimeInterval = 15 * 60

    /// Refuses to resume sessions on input other than the one they were journaled with.
    ///
    /// The same night is the same content — every frame or byte the journal saw, found again at the start of the
    /// given files (a longer recording of it is fine) — with the same start time and options; or a new recording,
    /// with the same inputs, that starts where the journaled night stopped (at its last epoch, at most
    /// `maximumContinuationGap` later). Anything else would mix two nights: another file or an edited one from the
    /// same start, the same file at another start, another time zone for local sensor times, a sensor added or
    /// missing, a live device for a replay.
    ///
    /// - Throws: `.invalidInput` saying what differs.
    static func checkInputs(
        of sessions: [JournalSession], against source: any DataSource, journal: SessionJournal
    ) throws {
        guard let given = source.fingerprint else { return }
        for session in sessions {
            guard let journaled = try journal.inputFingerprint(of: session) else { continue }
            var differences = journaled.differences(from: given)
            if differences.isEmpty, let file = source as? FileDataSource, let start = journaled.startTime,
                let givenStart = given.startTime
            {
                let content = file.contentDifferences(from: journaled.contents, names: journaled.inputs)
                if content.isEmpty {
                    if abs(start.timeIntervalSince(givenStart)) > 0.001 {
                        differences.append(
                            "the start time was \(start.formatted(.iso8601)), now \(givenStart.formatted(.iso8601)) "
                                + "with the same content (give the same start, e.g. --start \(start.formatted(.iso8601)))"
                        )
                    }
                } else {
                    let stopped =
                        try journal.checkpoint(sessionId: session.sessionId)?.processedUntil ?? session.startTime
                    let continues =
                        givenStart >= stopped && givenStart.timeIntervalSince(stopped) <= maximumContinuationGap
                    if !continues {
                        differences += content
                        differences.append(
                            "a new recording would have to start where the night stopped, between "
                                + "\(stopped.formatted(.iso8601)) and "
                                + "\(stopped.addingTimeInterval(maximumContinuationGap).formatted(.iso8601)); "
                                + "it starts at \(givenStart.formatted(.iso8601))")
                    }
                }
            }
            guard !differences.isEmpty else { continue }
            throw SleepCycleSdkError.invalidInput(
                "cannot resume session \(session.sessionId.uuidString) on other input: "
                    + differences.joined(separator: "; ")
                    + ". Resume with the same inputs, start time and options, or discard the session "
                    + "(clearActiveSessions; on the command line: sleepanalysis session discard)")
        }
    }
}

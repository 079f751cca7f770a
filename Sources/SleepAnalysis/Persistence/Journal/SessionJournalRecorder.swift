import Foundation

extension JournaledRecord {
    /// The journal entry for the record.
    func entry() throws -> JournalEntry {
        switch self {
        case .epoch(let observation):
            try JournalEntry(observation, kind: JournalKind.epochFeatures, time: observation.interval.end)
        case .realTimePrediction(let prediction):
            try JournalEntry(prediction, kind: JournalKind.realTimePrediction, time: prediction.interval.end)
        case .event(let event):
            try JournalEntry(event, kind: JournalKind.event, time: event.interval.end)
        case .breathing(let rate):
            try JournalEntry(rate, kind: JournalKind.breathingRate, time: rate.timestamp)
        case .health(let update):
            try JournalEntry(update, kind: JournalKind.healthUpdate, time: update.timestamp)
        case .alarmState(let state):
            try JournalEntry.snapshot(state, kind: JournalKind.alarmState, time: Date(timeIntervalSince1970: 0))
        case .eventsModel(let choice):
            try JournalEntry.snapshot(choice, kind: JournalKind.eventsModel, time: Date(timeIntervalSince1970: 0))
        }
    }
}

/// Commits a session's records to the SQLite journal once per epoch, in one transaction with a checkpoint, so a
/// process killed at any moment leaves whole epochs behind. Failures are logged, never thrown into the analysis.
struct SessionJournalRecorder: SessionRecorder {
    /// The journal.
    let journal: SessionJournal
    /// Where failures are logged.
    let logger: SDKLogger
    /// What the source has read of its input so far (nil for sources that do not say), journaled with each epoch.
    var fingerprint: @Sendable () -> DataSourceFingerprint? = { nil }

    /// Writes `records`, the source's fingerprint and the checkpoint `processedUntil` atomically.
    func commit(_ records: [JournaledRecord], sessionId: UUID, processedUntil: Date) {
        do {
            var entries = try records.map { try $0.entry() }
            if let fingerprint = fingerprint() {
                entries.append(
                    try .snapshot(
                        fingerprint, kind: JournalKind.inputFingerprint, time: Date(timeIntervalSince1970: 0)))
            }
            let sampleIndex = Int64(processedUntil.timeIntervalSince1970 * Double(AudioBatch.sampleRate))
            try journal.appendBatch(
                entries, sessionId: sessionId,
                checkpoint: JournalCheckpoint(processedUntil: processedUntil, sampleIndex: sampleIndex))
        } catch {
            logger.error("journaling session \(sessionId) failed: \(error)")
        }
    }
}

extension RestoredSessionState {
    /// Reads the session `session` back from `journal`.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the journal cannot be read.
    init(session: JournalSession, journal: SessionJournal) throws {
        let id = session.sessionId
        self.init(
            timeZone: session.timeZone,
            processedUntil: try journal.checkpoint(sessionId: id)?.processedUntil,
            observations: try journal.records(
                of: EpochObservation.self, kind: JournalKind.epochFeatures, sessionId: id),
            realTimePredictions: try journal.records(
                of: SleepStagePrediction.self, kind: JournalKind.realTimePrediction, sessionId: id),
            events: try journal.records(of: Event.self, kind: JournalKind.event, sessionId: id),
            breathingRates: try journal.records(of: BreathingRate.self, kind: JournalKind.breathingRate, sessionId: id),
            healthUpdates: try journal.records(
                of: AudioHealthUpdate.self, kind: JournalKind.healthUpdate, sessionId: id),
            alarmState: try journal.latest(of: SmartAlarmState.self, kind: JournalKind.alarmState, sessionId: id),
            eventsModel: try journal.latest(of: EventsModelChoice.self, kind: JournalKind.eventsModel, sessionId: id))
    }
}

extension SessionJournal {
    /// The fingerprint of a session's input: the one journaled with its latest epoch, else the one it began with.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the journal cannot be read.
    func inputFingerprint(of session: JournalSession) throws -> DataSourceFingerprint? {
        try latest(of: DataSourceFingerprint.self, kind: JournalKind.inputFingerprint, sessionId: session.sessionId)
            ?? session.inputFingerprint
    }

    /// Records a session that starts.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure`.
    func begin(_ session: SessionDescriptor, features: SleepAnalysisFeatures, source: any DataSource) throws {
        try beginSession(
            JournalSession(
                sessionId: session.sessionId, channel: session.channel, config: session.config,
                smartAlarmConfig: session.smartAlarmConfig, startTime: session.startTime,
                timeZoneIdentifier: TimeZone.current.identifier, enabledFeatures: features.enabledNames,
                sourceDescription: "\(source)", sourceStartTime: session.startTime,
                inputFingerprint: source.fingerprint))
    }

    /// Removes a finished (or discarded) session; a failure is logged.
    func finishQuietly(_ sessionId: UUID, logger: SDKLogger) {
        do {
            try finishSession(sessionId)
        } catch {
            logger.error("removing session \(sessionId) from the journal failed: \(error)")
        }
    }
}

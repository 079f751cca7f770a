import Foundation

/// The records a session gathers between two checkpoints, committed to its recorder in one transaction when an
/// epoch closes; dropped instead when the session is not recorded (or no longer: `detach()`).
struct SessionJournalBatch {
    /// The session the records belong to.
    let sessionId: UUID
    /// The records since the last commit.
    private(set) var pending: [JournaledRecord] = []
    /// Keeps the session's records for a resume; nil when the session is not recorded.
    private var recorder: (any SessionRecorder)?

    /// A batch for a session.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - recorder: Where commits go; nil when the session is not recorded.
    init(sessionId: UUID, recorder: (any SessionRecorder)?) {
        self.sessionId = sessionId
        self.recorder = recorder
    }

    /// Adds a record to the next commit.
    mutating func append(_ record: JournaledRecord) {
        pending.append(record)
    }

    /// Adds records to the next commit, in order.
    mutating func append(contentsOf records: [JournaledRecord]) {
        pending.append(contentsOf: records)
    }

    /// Stops recording: later commits only drop their records (an interrupted session that stays resumable).
    mutating func detach() {
        recorder = nil
    }

    /// Writes the records since the last commit, then the smart alarm's state when there is one, with a checkpoint
    /// at `processedUntil`, in one transaction; without a recorder the records are dropped.
    ///
    /// - Parameters:
    ///   - processedUntil: The end of the data the records cover.
    ///   - alarmState: The smart alarm's state, read only when there is a recorder.
    mutating func commit(processedUntil: Date, alarmState: @autoclosure () -> SmartAlarmState?) {
        guard let recorder else {
            pending.removeAll()
            return
        }
        if let state = alarmState() { pending.append(.alarmState(state)) }
        recorder.commit(pending, sessionId: sessionId, processedUntil: processedUntil)
        pending.removeAll()
    }
}

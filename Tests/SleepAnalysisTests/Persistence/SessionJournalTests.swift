import XCTest

@_spi(Internal) @testable import SleepAnalysis

final class SessionJournalTests: XCTestCase {
    private let origin = Date(timeIntervalSince1970: 1_790_000_000)

    private func makeSession(channel: AnalysisChannel = .primary, start: Date? = nil) -> JournalSession {
        let start = start ?? origin
        return JournalSession(
            sessionId: UUID(), channel: channel, config: SleepAnalysisConfig(useAudio: true, useAccelerometer: true),
            smartAlarmConfig: SmartAlarmConfig(wakeupWindow: DateInterval(start: start + 6 * 3600, duration: 1800)),
            startTime: start, timeZoneIdentifier: "Asia/Tokyo", enabledFeatures: ["sleepStaging", "smartAlarm"],
            sourceDescription: "file:///nights/a.flac", sourceStartTime: start - 2)
    }

    private func makeJournal() throws -> (SessionJournal, URL) {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("journal.sqlite")
        return (try SessionJournal(databaseURL: url), url)
    }

    func test_eventsModelChoice_isJournaledOnce_andRestored() throws {
        // Given a session whose detector chose the band-limited model, journaled by the pipeline's recorder
        let (journal, _) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        let recorder = SessionJournalRecorder(journal: journal, logger: SDKLogger(threshold: .error))
        XCTAssertNil(try RestoredSessionState(session: session, journal: journal).eventsModel)
        recorder.commit(
            [.eventsModel(EventsModelChoice(bandLimited: true))], sessionId: session.sessionId,
            processedUntil: origin + 30)
        recorder.commit([], sessionId: session.sessionId, processedUntil: origin + 60)
        // Then a resume reads the choice back
        let restored = try RestoredSessionState(session: session, journal: journal)
        XCTAssertEqual(restored.eventsModel, EventsModelChoice(bandLimited: true))
        XCTAssertEqual(restored.processedUntil, origin + 60)
        XCTAssertEqual(try journal.recordCount(kind: JournalKind.eventsModel, sessionId: session.sessionId), 1)
    }

    func test_connections_opening_a_new_journal_at_once_all_succeed_and_share_it() throws {
        // Given several connections (as several processes would) opening the same new file together
        let directory = try makeTemporaryDirectory(self)
        let outcomes = ConcurrentOutcomes()
        for round in 0..<40 {
            let url = directory.appendingPathComponent("journal-\(round).sqlite")
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    let journal = try SessionJournal(databaseURL: url)
                    outcomes.record(.success(journal))
                } catch {
                    outcomes.record(.failure(error))
                }
            }
        }
        // Then none is refused ("database is locked" while another switches the file to WAL), and what one
        // connection writes, another reads: no file was replaced under an open connection
        XCTAssertEqual(outcomes.failures, [])
        let journals = outcomes.journals
        XCTAssertEqual(journals.count, 240)
        let session = makeSession()
        try journals[0].beginSession(session)
        XCTAssertEqual(try journals[5].activeSessions().map(\.sessionId), [session.sessionId])
    }

    func test_journal_roundTrips_session_records_and_checkpoint_across_reopen() throws {
        // Given a session with events, breathing rates and a checkpoint
        let (journal, url) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        let events = (0..<3).map {
            Event(
                type: .snoring, interval: DateInterval(start: origin + Double($0) * 60, duration: 2), probability: 0.9,
                source: .audio, sessionId: session.sessionId, signature: [Float](repeating: 0.5, count: 16))
        }
        for event in events {
            try journal.append(event, kind: JournalKind.event, sessionId: session.sessionId, time: event.interval.end)
        }
        let rate = BreathingRate(timestamp: origin + 30, bpm: .nan, confidence: 0, sessionId: session.sessionId)
        try journal.append(rate, kind: JournalKind.breathingRate, sessionId: session.sessionId, time: origin + 30)
        try journal.setCheckpoint(sessionId: session.sessionId, processedUntil: origin + 90, sampleIndex: 1_440_000)

        // When the journal is reopened (a new process)
        let reopened = try SessionJournal(databaseURL: url)

        // Then everything comes back, in order
        XCTAssertEqual(try reopened.activeSessions(), [session])
        let id = session.sessionId
        XCTAssertEqual(try reopened.records(of: Event.self, kind: JournalKind.event, sessionId: id), events)
        let rates = try reopened.records(of: BreathingRate.self, kind: JournalKind.breathingRate, sessionId: id)
        XCTAssertEqual(rates.count, 1)
        XCTAssertTrue(rates[0].bpm.isNaN, "non-finite numbers survive")
        XCTAssertEqual(
            try reopened.checkpoint(sessionId: session.sessionId),
            JournalCheckpoint(processedUntil: origin + 90, sampleIndex: 1_440_000))
        XCTAssertEqual(
            try reopened.latest(of: Event.self, kind: JournalKind.event, sessionId: session.sessionId), events.last)
        XCTAssertNil(try reopened.latest(of: Event.self, kind: JournalKind.healthUpdate, sessionId: session.sessionId))
        XCTAssertEqual(session.resumedSession.smartAlarmConfig, session.smartAlarmConfig)
        XCTAssertEqual(session.timeZone.identifier, "Asia/Tokyo")
    }

    func test_appendBatch_writes_entries_and_checkpoint_together_and_snapshots_replace() throws {
        let (journal, _) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        for epoch in 0..<5 {
            let end = origin + Double(epoch + 1) * 30
            let entries = [
                try JournalEntry(
                    [Float](repeating: Float(epoch), count: 4), kind: JournalKind.epochFeatures, time: end),
                try JournalEntry.snapshot("alarm-state-\(epoch)", kind: JournalKind.alarmState, time: end),
            ]
            try journal.appendBatch(
                entries, sessionId: session.sessionId,
                checkpoint: JournalCheckpoint(processedUntil: end, sampleIndex: Int64(epoch + 1) * 480_000))
        }
        let features = try journal.records(
            of: [Float].self, kind: JournalKind.epochFeatures, sessionId: session.sessionId)
        XCTAssertEqual(features.map { $0[0] }, [0, 1, 2, 3, 4])
        XCTAssertEqual(try journal.recordCount(kind: JournalKind.alarmState, sessionId: session.sessionId), 1)
        XCTAssertEqual(
            try journal.latest(of: String.self, kind: JournalKind.alarmState, sessionId: session.sessionId),
            "alarm-state-4")
        XCTAssertEqual(try journal.checkpoint(sessionId: session.sessionId)?.sampleIndex, 2_400_000)
    }

    func test_appendBatch_is_atomic_for_a_concurrent_reader() throws {
        // Given a writer appending batches of 16 and a second connection reading while it writes
        let (journal, url) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        let reader = try SessionJournal(databaseURL: url)
        let batchSize = 16
        let batches = try (0..<150).map { batch in
            try (0..<batchSize).map { try JournalEntry([batch, $0], kind: "item", time: Date()) }
        }
        let writer = Thread {
            for entries in batches {
                try? journal.appendBatch(entries, sessionId: session.sessionId)
            }
        }
        writer.start()
        // Then every count the reader sees is a whole number of batches
        var observed: Set<Int> = []
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let count = try reader.recordCount(kind: "item", sessionId: session.sessionId)
            XCTAssertEqual(count % batchSize, 0, "a partial batch was visible")
            observed.insert(count)
            if count == 150 * batchSize { break }
        }
        XCTAssertEqual(observed.max(), 150 * batchSize)
        XCTAssertGreaterThan(observed.count, 2, "the reader should have seen intermediate states")
    }

    func test_append_to_unknown_session_throws_analysisNotActive_and_writes_nothing() throws {
        let (journal, _) = try makeJournal()
        let unknown = UUID()
        XCTAssertThrowsError(try journal.append(1, kind: "x", sessionId: unknown, time: origin)) {
            XCTAssertEqual($0 as? SleepCycleSdkError, .analysisNotActive)
        }
        XCTAssertThrowsError(try journal.setCheckpoint(sessionId: unknown, processedUntil: origin, sampleIndex: 1)) {
            XCTAssertEqual($0 as? SleepCycleSdkError, .analysisNotActive)
        }
        XCTAssertEqual(try journal.recordCount(kind: "x", sessionId: unknown), 0)
    }

    func test_beginSession_twice_throws_analysisAlreadyRunning() throws {
        let (journal, _) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        XCTAssertThrowsError(try journal.beginSession(session)) {
            XCTAssertEqual($0 as? SleepCycleSdkError, .analysisAlreadyRunning)
        }
    }

    func test_activeSessions_lists_open_ones_and_finished_ones_are_gone() throws {
        // Given two sessions, one on each channel
        let (journal, url) = try makeJournal()
        let primary = makeSession(channel: .primary, start: origin)
        let secondary = makeSession(channel: .secondary, start: origin + 1)
        try journal.beginSession(primary)
        try journal.beginSession(secondary)
        try journal.append("p", kind: "k", sessionId: primary.sessionId, time: origin)
        try journal.append("s", kind: "k", sessionId: secondary.sessionId, time: origin)
        XCTAssertEqual(try journal.activeSessions().map(\.sessionId), [primary.sessionId, secondary.sessionId])

        // When the primary finishes
        try journal.finishSession(primary.sessionId)

        // Then it and its records are gone, the secondary stays
        let reopened = try SessionJournal(databaseURL: url)
        XCTAssertEqual(try reopened.activeSessions(), [secondary])
        XCTAssertEqual(try reopened.records(of: String.self, kind: "k", sessionId: primary.sessionId), [])
        XCTAssertEqual(try reopened.records(of: String.self, kind: "k", sessionId: secondary.sessionId), ["s"])
        XCTAssertNil(try reopened.session(primary.sessionId))

        // And discardAll clears the rest
        try reopened.discardAll()
        XCTAssertEqual(try reopened.activeSessions(), [])
        XCTAssertEqual(try reopened.recordCount(kind: "k", sessionId: secondary.sessionId), 0)
    }

    func test_updateSmartAlarm_persists_replacement_and_cancellation() throws {
        let (journal, url) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        let window = DateInterval(start: origin + 7 * 3600, duration: 900)
        try journal.updateSmartAlarm(sessionId: session.sessionId, config: SmartAlarmConfig(wakeupWindow: window))
        XCTAssertEqual(
            try SessionJournal(databaseURL: url).activeSessions().first?.smartAlarmConfig?.wakeupWindow, window)

        try journal.updateSmartAlarm(sessionId: session.sessionId, config: nil)
        XCTAssertEqual(
            try SessionJournal(databaseURL: url).activeSessions().first?.resumedSession,
            ResumedSession(sessionId: session.sessionId, channel: .primary, smartAlarmConfig: nil))

        XCTAssertThrowsError(try journal.updateSmartAlarm(sessionId: UUID(), config: nil)) {
            XCTAssertEqual($0 as? SleepCycleSdkError, .analysisNotActive)
        }
    }

    func test_records_with_wrong_type_give_storageFailure() throws {
        let (journal, _) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        try journal.append("text", kind: "k", sessionId: session.sessionId, time: origin)
        assertStorageFailure(try journal.records(of: Event.self, kind: "k", sessionId: session.sessionId))
    }

    func test_alarmSnapshot_restores_the_smartAlarmEngine_after_reopen() throws {
        // Given an alarm that fired, journaled as the latest snapshot of its session
        let (journal, url) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        var state = SmartAlarmState.disarmed(sessionId: session.sessionId)
        state.configuration = session.smartAlarmConfig
        state.phase = .armed
        state.armedAt = origin
        try journal.appendBatch(
            [JournalEntry.snapshot(state, kind: JournalKind.alarmState, time: origin)], sessionId: session.sessionId)
        state.phase = .fired
        state.firedAt = origin + 6 * 3600 + 60
        state.firedReason = .optimalWakeUp
        try journal.appendBatch(
            [JournalEntry.snapshot(state, kind: JournalKind.alarmState, time: state.firedAt!)],
            sessionId: session.sessionId)

        // When the host restarts and rebuilds the engine from the journal
        let restored = try XCTUnwrap(
            SessionJournal(databaseURL: url).latest(
                of: SmartAlarmState.self, kind: JournalKind.alarmState, sessionId: session.sessionId))
        let engine = SmartAlarmEngine(restoring: restored)

        // Then it is the fired alarm, not a re-armed one
        XCTAssertEqual(engine.state, state)
        XCTAssertEqual(try journal.recordCount(kind: JournalKind.alarmState, sessionId: session.sessionId), 1)
    }

    func test_openRecovering_moves_a_damaged_journal_aside_and_starts_empty() throws {
        // Given a journal file full of garbage
        let directory = try makeTemporaryDirectory(self)
        let url = directory.appendingPathComponent("journal.sqlite")
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try garbage.write(to: url)

        // When it is opened with recovery
        let (journal, quarantined) = try SessionJournal.openRecovering(databaseURL: url)

        // Then the garbage is kept aside, and a fresh journal works
        let moved = try XCTUnwrap(quarantined).movedURL
        XCTAssertEqual(try Data(contentsOf: moved), garbage)
        XCTAssertTrue(moved.lastPathComponent.hasPrefix("journal.sqlite.corrupt-"), moved.lastPathComponent)
        XCTAssertEqual(try journal.activeSessions(), [])
        try journal.beginSession(makeSession())
        XCTAssertEqual(try journal.activeSessions().count, 1)
    }

    func test_openRecovering_keeps_a_healthy_journal_and_refuses_a_newer_one() throws {
        let (journal, url) = try makeJournal()
        let session = makeSession()
        try journal.beginSession(session)
        let reopened = try SessionJournal.openRecovering(databaseURL: url)
        XCTAssertNil(reopened.quarantined)
        XCTAssertEqual(try reopened.journal.activeSessions(), [session])

        // A journal from a newer library is not damaged: it is left alone and reported
        let database = try SQLiteDatabase(url: url)
        try database.write { try $0.execute("UPDATE schema_version SET version = 99") }
        assertStorageFailure(try SessionJournal.openRecovering(databaseURL: url))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
                .filter { $0.contains("corrupt") }, [])
    }
}

/// What concurrently opening connections produced, collected under a lock.
private final class ConcurrentOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<SessionJournal, any Error>] = []

    func record(_ result: Result<SessionJournal, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        results.append(result)
    }

    /// The descriptions of the errors, in arrival order.
    var failures: [String] {
        lock.lock()
        defer { lock.unlock() }
        return results.compactMap { result in
            if case .failure(let error) = result { return "\(error)" }
            return nil
        }
    }

    /// The journals opened, in arrival order.
    var journals: [SessionJournal] {
        lock.lock()
        defer { lock.unlock() }
        return results.compactMap { try? $0.get() }
    }
}

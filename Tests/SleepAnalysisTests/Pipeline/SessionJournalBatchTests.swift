import Foundation
import Synchronization
import XCTest

@_spi(Internal) @testable import SleepAnalysis

/// `SessionJournalBatch`: a session's records between checkpoints go to its recorder in one commit each, with the
/// smart alarm's state last; without a recorder (or once detached) they are dropped.
final class SessionJournalBatchTests: XCTestCase {
    private final class CommitRecorder: SessionRecorder {
        struct Commit {
            var records: [JournaledRecord]
            var sessionId: UUID
            var processedUntil: Date
        }

        private let recorded = Mutex<[Commit]>([])
        var commits: [Commit] { recorded.withLock { $0 } }

        func commit(_ records: [JournaledRecord], sessionId: UUID, processedUntil: Date) {
            recorded.withLock {
                $0.append(Commit(records: records, sessionId: sessionId, processedUntil: processedUntil))
            }
        }
    }

    private let session = UUID()
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func health(_ seconds: TimeInterval) -> JournaledRecord {
        .health(AudioHealthUpdate(status: .flatline, timestamp: start.addingTimeInterval(seconds), sessionId: session))
    }

    private func timestamps(_ records: [JournaledRecord]) -> [TimeInterval] {
        records.map { record in
            guard case .health(let update) = record else { return -1 }
            return update.timestamp.timeIntervalSince(start)
        }
    }

    func test_eachCommitWritesTheRecordsSinceTheLastOne_withItsCheckpoint() {
        let recorder = CommitRecorder()
        var journal = SessionJournalBatch(sessionId: session, recorder: recorder)
        journal.append(health(1))
        journal.append(contentsOf: [health(2), health(3)])
        journal.commit(processedUntil: start.addingTimeInterval(30), alarmState: nil)
        XCTAssertTrue(journal.pending.isEmpty)
        journal.commit(processedUntil: start.addingTimeInterval(60), alarmState: nil)
        journal.append(health(61))
        journal.commit(processedUntil: start.addingTimeInterval(90), alarmState: nil)
        XCTAssertEqual(recorder.commits.map { timestamps($0.records) }, [[1, 2, 3], [], [61]])
        XCTAssertEqual(
            recorder.commits.map(\.processedUntil.timeIntervalSince1970),
            [30, 60, 90].map {
                start.addingTimeInterval($0).timeIntervalSince1970
            })
        XCTAssertEqual(Set(recorder.commits.map(\.sessionId)), [session])
    }

    func test_withoutARecorder_orOnceDetached_recordsAreDropped_andTheAlarmStateIsNotRead() {
        var alarmStateReads = 0
        func alarmState() -> SmartAlarmState? {
            alarmStateReads += 1
            return nil
        }
        var unrecorded = SessionJournalBatch(sessionId: session, recorder: nil)
        unrecorded.append(health(1))
        unrecorded.commit(processedUntil: start.addingTimeInterval(30), alarmState: alarmState())
        XCTAssertTrue(unrecorded.pending.isEmpty)
        XCTAssertEqual(alarmStateReads, 0)

        let recorder = CommitRecorder()
        var journal = SessionJournalBatch(sessionId: session, recorder: recorder)
        journal.append(health(1))
        journal.commit(processedUntil: start.addingTimeInterval(30), alarmState: alarmState())
        XCTAssertEqual(alarmStateReads, 1)
        journal.detach()
        journal.append(health(31))
        journal.commit(processedUntil: start.addingTimeInterval(60), alarmState: alarmState())
        XCTAssertEqual(recorder.commits.count, 1)
        XCTAssertTrue(journal.pending.isEmpty)
        XCTAssertEqual(alarmStateReads, 1)
    }
}

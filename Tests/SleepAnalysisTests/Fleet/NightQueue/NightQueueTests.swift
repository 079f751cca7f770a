import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// The queue's life cycle against a real server: submit, claim, renew, complete, fail, retry, cancel, and the
/// lease guards that keep one result per job when workers race.
final class NightQueueTests: XCTestCase {
    private var testDatabase: PostgresTestDatabase!
    private var queue: NightQueue!

    override func setUp() async throws {
        try await super.setUp()
        testDatabase = try await PostgresTestDatabase.create()
        queue = try await NightQueue(
            address: testDatabase.address, retryBackoff: NightRetryBackoff(initial: 0.2, maximum: 0.2))
    }

    override func tearDown() async throws {
        await queue?.close()
        await testDatabase?.drop()
        try await super.tearDown()
    }

    private func night(_ index: Int, maxAttempts: Int = 5) -> NightSubmission {
        NightSubmission(
            audio: URL(fileURLWithPath: "/nights/\(index).flac"),
            accelerometer: index.isMultiple(of: 2) ? URL(fileURLWithPath: "/nights/\(index).csv") : nil,
            startTime: Date(timeIntervalSince1970: 1_796_000_000 + Double(index) * 86_400),
            subjectId: "subject-\(index)",
            maxAttempts: maxAttempts)
    }

    private func result(for lease: NightLease) -> AnalysisResult {
        AnalysisResult(
            sessionId: UUID(), startTime: lease.job.submission.startTime,
            endTime: lease.job.submission.startTime.addingTimeInterval(240))
    }

    private func resultCount() async throws -> Int64? {
        try await testDatabase.database().run {
            try $0.execute("SELECT count(*) FROM night_results").rows.first?.int64(0)
        }
    }

    func test_submitClaimComplete_storesTheResult_andMarksTheJobDone() async throws {
        let id = try await queue.submit(night(0))
        let claimedLease = try await queue.claim(worker: "w1", leaseDuration: 30)
        let lease = try XCTUnwrap(claimedLease)
        XCTAssertEqual(lease.job.id, id)
        XCTAssertEqual(lease.job.submission, night(0))
        XCTAssertEqual(lease.job.state, .running)
        XCTAssertEqual(lease.job.attempts, 1)
        XCTAssertEqual(lease.job.leasedBy, "w1")
        let noMore = try await queue.claim(worker: "w2", leaseDuration: 30)
        XCTAssertNil(noMore, "a leased job is not claimed again")

        var renewed = lease
        let isRenewed = try await queue.renew(&renewed, for: 120)
        XCTAssertTrue(isRenewed)
        XCTAssertGreaterThan(renewed.expiresAt, lease.expiresAt)

        let analysed = result(for: lease)
        let isCompleted = try await queue.complete(lease, result: analysed, worker: "w1")
        XCTAssertTrue(isCompleted)
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .done)
        XCTAssertNotNil(job?.finishedAt)
        let stored = try await queue.result(jobId: id)
        XCTAssertEqual(stored?.sessionId, analysed.sessionId)
        XCTAssertEqual(stored?.endTime, analysed.endTime)
        let isCompletedTwice = try await queue.complete(lease, result: analysed, worker: "w1")
        XCTAssertFalse(isCompletedTwice, "a job completes once")
        let results = try await resultCount()
        XCTAssertEqual(results, 1)
        // The night is in the subject's session store too, written in the same transaction
        let store = try SessionStore(address: testDatabase.address, subject: "subject-0")
        let saved = try await store.result(sessionId: analysed.sessionId)
        XCTAssertEqual(saved, analysed)
        let otherSubject = try await SessionStore(address: testDatabase.address, subject: "subject-1").currentAnchor()
        XCTAssertEqual(otherSubject.rawValue, 0)
    }

    func test_status_countsPerState_andNamesTheOldestWaitingJob() async throws {
        let first = try await queue.submit(night(0))
        _ = try await queue.submit(night(1))
        _ = try await queue.submit(night(2))
        let cancelled = try await queue.submit(night(3))
        let isCancelled = try await queue.cancel(jobId: cancelled)
        XCTAssertTrue(isCancelled)
        _ = try await queue.claim(worker: "w1", leaseDuration: 30)

        let status = try await queue.status()
        XCTAssertEqual(status.count(.queued), 2)
        XCTAssertEqual(status.count(.running), 1)
        XCTAssertEqual(status.count(.cancelled), 1)
        XCTAssertEqual(status.count(.done), 0)
        XCTAssertNotEqual(status.oldestWaiting?.id, first, "the first job is running, not waiting")
        XCTAssertGreaterThanOrEqual(status.oldestWaiting?.waitingSeconds ?? -1, 0)
        let waiting = try await queue.jobs(in: [.queued])
        XCTAssertEqual(waiting.map(\.submission.subjectId), ["subject-1", "subject-2"])
        let all = try await queue.jobs()
        XCTAssertEqual(all.count, 4)
    }

    func test_cancel_stopsTheLeaseHolder_andRetry_queuesTheJobAgain() async throws {
        let id = try await queue.submit(night(0))
        let claimedLease = try await queue.claim(worker: "w1", leaseDuration: 30)
        var lease = try XCTUnwrap(claimedLease)
        let isCancelled = try await queue.cancel(jobId: id)
        XCTAssertTrue(isCancelled)
        let isRenewed = try await queue.renew(&lease, for: 30)
        XCTAssertFalse(isRenewed, "the worker learns of the cancellation")
        let isCompleted = try await queue.complete(lease, result: result(for: lease), worker: "w1")
        XCTAssertFalse(isCompleted)
        let isCancelledAgain = try await queue.cancel(jobId: id)
        XCTAssertFalse(isCancelledAgain, "already ended")

        let isRetried = try await queue.retry(jobId: id)
        XCTAssertTrue(isRetried)
        let isRetriedAgain = try await queue.retry(jobId: id)
        XCTAssertFalse(isRetriedAgain, "only failed or cancelled jobs are retried")
        let claimedAgain = try await queue.claim(worker: "w2", leaseDuration: 30)
        let again = try XCTUnwrap(claimedAgain)
        XCTAssertEqual(again.job.id, id)
        XCTAssertEqual(again.job.attempts, 1, "retry resets the attempts")
        let results = try await resultCount()
        XCTAssertEqual(results, 0)
    }

    func test_anExpiredLease_goesToTheNextClaimer_andTheOldHolderCannotComplete() async throws {
        let id = try await queue.submit(night(0))
        let claimedFirst = try await queue.claim(worker: "slow", leaseDuration: 0.3)
        let first = try XCTUnwrap(claimedFirst)
        try await Task.sleep(nanoseconds: 600_000_000)

        let claimedSecond = try await queue.claim(worker: "fast", leaseDuration: 30)
        let second = try XCTUnwrap(claimedSecond)
        XCTAssertEqual(second.job.id, id)
        XCTAssertEqual(second.job.attempts, 2)
        XCTAssertNotEqual(second.token, first.token)

        let queue: NightQueue = queue
        let (slowResult, fastResult) = (result(for: first), result(for: second))
        async let slow = queue.complete(first, result: slowResult, worker: "slow")
        async let fast = queue.complete(second, result: fastResult, worker: "fast")
        let outcomes = try await [slow, fast]
        XCTAssertEqual(outcomes, [false, true], "only the current lease holder completes")
        let results = try await resultCount()
        XCTAssertEqual(results, 1)
        let written = try await testDatabase.database().run {
            try $0.execute("SELECT written_by FROM night_results WHERE job_id = $1", [String(id)]).rows.first?[0]
        }
        XCTAssertEqual(written, "fast")
        // Only the winner's night is in the session store
        let store = try SessionStore(address: testDatabase.address, subject: "subject-0")
        let stored = try await store.changes(since: nil).added.map(\.sessionId)
        XCTAssertEqual(stored, [fastResult.sessionId])
    }

    func test_twoClaimersRacingForAnExpiredLease_onlyOneGetsIt() async throws {
        _ = try await queue.submit(night(0))
        _ = try await queue.claim(worker: "dead", leaseDuration: 0.2)
        try await Task.sleep(nanoseconds: 500_000_000)
        let address = testDatabase.address
        let claims = try await withThrowingTaskGroup(of: NightLease?.self) { group in
            for index in 0..<6 {
                group.addTask {
                    let own = try await NightQueue(address: address)
                    return try await own.claim(worker: "racer-\(index)", leaseDuration: 30)
                }
            }
            var leases: [NightLease] = []
            for try await lease in group { leases += lease.map { [$0] } ?? [] }
            return leases
        }
        XCTAssertEqual(claims.count, 1, "exactly one racer took the expired job")
        let lease = try XCTUnwrap(claims.first)
        let isCompleted = try await queue.complete(lease, result: result(for: lease), worker: lease.job.leasedBy ?? "")
        XCTAssertTrue(isCompleted)
        let results = try await resultCount()
        XCTAssertEqual(results, 1)
    }

    func test_inputFailure_failsAtOnce_transientFailure_retriesWithBackoffThenGivesUp() async throws {
        let bad = try await queue.submit(night(0))
        let flaky = try await queue.submit(night(1, maxAttempts: 2))

        let claimedBadLease = try await queue.claim(worker: "w", leaseDuration: 30)
        let badLease = try XCTUnwrap(claimedBadLease)
        XCTAssertEqual(badLease.job.id, bad)
        let badState = try await queue.fail(badLease, .input("Invalid input: not audio"))
        XCTAssertEqual(badState, .failed)
        let badError = try await queue.job(id: bad)?.lastError
        XCTAssertEqual(badError, "Invalid input: not audio")

        let claimedFirstTry = try await queue.claim(worker: "w", leaseDuration: 30)
        let firstTry = try XCTUnwrap(claimedFirstTry)
        XCTAssertEqual(firstTry.job.id, flaky)
        let flakyState = try await queue.fail(firstTry, .transient("disk full"))
        XCTAssertEqual(flakyState, .queued)
        let waiting = try await queue.claim(worker: "w", leaseDuration: 30)
        XCTAssertNil(waiting, "the back-off holds the job back")
        try await Task.sleep(nanoseconds: 400_000_000)

        let claimedSecondTry = try await queue.claim(worker: "w", leaseDuration: 30)
        let secondTry = try XCTUnwrap(claimedSecondTry)
        XCTAssertEqual(secondTry.job.attempts, 2)
        let flakyFinalState = try await queue.fail(secondTry, .transient("disk full"))
        XCTAssertEqual(flakyFinalState, .failed)
        let flakyError = try await queue.job(id: flaky)?.lastError
        XCTAssertEqual(flakyError, "gave up after 2 attempts: disk full")
        let status = try await queue.status()
        XCTAssertEqual(status.count(.failed), 2)
        XCTAssertNil(status.oldestWaiting)
    }

    func test_aLeaseExpiringWithNoAttemptsLeft_failsTheJob() async throws {
        let id = try await queue.submit(night(0, maxAttempts: 1))
        _ = try await queue.claim(worker: "crashing", leaseDuration: 0.2)
        try await Task.sleep(nanoseconds: 500_000_000)
        let next = try await queue.claim(worker: "w", leaseDuration: 30)
        XCTAssertNil(next)
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .failed)
        XCTAssertTrue(job?.lastError?.contains("lease of crashing expired") ?? false, job?.lastError ?? "")
    }

    func test_release_putsTheJobBack_withoutCountingTheAttempt() async throws {
        let id = try await queue.submit(night(0))
        let claimedLease = try await queue.claim(worker: "stopping", leaseDuration: 30)
        let lease = try XCTUnwrap(claimedLease)
        let isReleased = try await queue.release(lease)
        XCTAssertTrue(isReleased)
        let isReleasedAgain = try await queue.release(lease)
        XCTAssertFalse(isReleasedAgain)
        let claimedAgain = try await queue.claim(worker: "w", leaseDuration: 30)
        let again = try XCTUnwrap(claimedAgain)
        XCTAssertEqual(again.job.id, id)
        XCTAssertEqual(again.job.attempts, 1)
    }

    func test_checkpoints_areSavedByTheLeaseHolderOnly_andGoWithCompletion() async throws {
        let id = try await queue.submit(night(0))
        let claimed = try await queue.claim(worker: "w1", leaseDuration: 30)
        let lease = try XCTUnwrap(claimed)
        let journal = Data((0..<5_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let saved = try await queue.saveCheckpoint(lease, NightCheckpoint(journal: journal, epochs: 3, writtenBy: "w1"))
        XCTAssertTrue(saved)
        let newer = try await queue.saveCheckpoint(lease, NightCheckpoint(journal: journal, epochs: 4, writtenBy: "w1"))
        XCTAssertTrue(newer)
        let read = try await queue.checkpoint(jobId: id)
        XCTAssertEqual(read, NightCheckpoint(journal: journal, epochs: 4, writtenBy: "w1"))

        var stranger = lease
        stranger.token = UUID()
        let refused = try await queue.saveCheckpoint(
            stranger, NightCheckpoint(journal: Data(), epochs: 9, writtenBy: "x"))
        XCTAssertFalse(refused, "only the lease holder saves")

        let completed = try await queue.complete(lease, result: result(for: lease), worker: "w1")
        XCTAssertTrue(completed)
        let gone = try await queue.checkpoint(jobId: id)
        XCTAssertNil(gone)
    }
}

import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Idempotent submissions (explicit and default keys, racing submitters), named queues and priorities, delayed
/// jobs, refused submissions, pruning and listing, on a real PostgreSQL queue.
final class NightQueueSubmissionTests: NightQueueTestCase {
    private func night(
        _ file: URL, subject: String = "ana", queue: String = NightSubmission.defaultQueue, priority: Int = 0,
        runAt: Date? = nil, key: String? = nil
    ) -> NightSubmission {
        NightSubmission(
            audio: file, startTime: Date(timeIntervalSince1970: 1_796_000_000), subjectId: subject, queue: queue,
            priority: priority, runAt: runAt, idempotencyKey: key)
    }

    private func file(_ name: String, _ content: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try Data(content.utf8).write(to: url)
        return url
    }

    func test_theSameNightSubmittedTwice_givesOneJob_evenUnderAnotherPath() async throws {
        let first = try file("ana-1.wav", "the same recording")
        let copy = try file("copy-of-ana-1.wav", "the same recording")
        let other = try file("ana-2.wav", "another recording")
        let created = try await queue.enqueue(night(first))
        XCTAssertTrue(created.isNew)
        let again = try await queue.enqueue(night(first))
        XCTAssertEqual(again, NightEnqueued(id: created.id, isNew: false))
        let copied = try await queue.enqueue(night(copy))
        XCTAssertEqual(copied.id, created.id, "the default key follows the content, not the path")
        let another = try await queue.enqueue(night(other))
        XCTAssertNotEqual(another.id, created.id)
        let otherSubject = try await queue.enqueue(night(first, subject: "bo"))
        XCTAssertNotEqual(otherSubject.id, created.id)
        let jobs = try await queue.jobs()
        XCTAssertEqual(jobs.count, 3)
        XCTAssertEqual(jobs.first?.idempotencyKey, try night(first).defaultIdempotencyKey())
        XCTAssertTrue(jobs.first?.idempotencyKey?.hasPrefix("night:") ?? false)
    }

    func test_aDoneJob_isReturnedForItsNight_andAnExplicitKeyDecides() async throws {
        let audio = try file("n.wav", "night")
        let id = try await queue.submit(night(audio, key: "upload-42"))
        let claimed = try await queue.claim(worker: "w", leaseDuration: 30)
        let lease = try XCTUnwrap(claimed)
        let result = AnalysisResult(
            sessionId: UUID(), startTime: lease.job.submission.startTime,
            endTime: lease.job.submission.startTime.addingTimeInterval(240))
        let completed = try await queue.complete(lease, result: result, worker: "w")
        XCTAssertTrue(completed)
        let resubmitted = try await queue.enqueue(night(audio, key: "upload-42"))
        XCTAssertEqual(resubmitted, NightEnqueued(id: id, isNew: false), "the finished night is not analysed again")
        let reanalysis = try await queue.enqueue(night(audio, key: "reanalysis-2026-12/upload-42"))
        XCTAssertTrue(reanalysis.isNew)
    }

    func test_racingSubmittersOfOneNight_getOneJob() async throws {
        let audio = try file("race.wav", "one night")
        let address = testDatabase.address
        let submission = night(audio)
        let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let own = try await NightQueue(address: address)
                    let id = try await own.submit(submission)
                    await own.close()
                    return id
                }
            }
            var ids: Set<Int64> = []
            for try await id in group { ids.insert(id) }
            return ids
        }
        XCTAssertEqual(ids.count, 1)
        let count = try await queue.jobs().count
        XCTAssertEqual(count, 1)
    }

    func test_priorities_comeFirst_whateverTheAge_andQueuesAreApart() async throws {
        var backlog: [Int64] = []
        for index in 0..<5 {
            backlog.append(
                try await queue.submit(
                    night(try file("old-\(index).wav", "old \(index)"), queue: "reanalysis", priority: -10)))
        }
        let tonight = try await queue.submit(night(try file("tonight.wav", "tonight")))
        let first = try await queue.claim(worker: "w", leaseDuration: 30)
        XCTAssertEqual(first?.job.id, tonight, "tonight's night is claimed before the older backlog")
        XCTAssertEqual(first?.job.submission.queue, NightSubmission.defaultQueue)
        let onlyDefault = try await queue.claim(worker: "w", leaseDuration: 30, queues: ["default"])
        XCTAssertNil(onlyDefault, "a worker of the default queue does not take the backlog")
        let backlogClaim = try await queue.claim(worker: "w", leaseDuration: 30, queues: ["reanalysis"])
        XCTAssertEqual(backlogClaim?.job.id, backlog.first, "within a priority, oldest first")
        XCTAssertEqual(backlogClaim?.job.submission.priority, -10)
        let listed = try await queue.jobs(queue: "reanalysis")
        XCTAssertEqual(listed.map(\.id), backlog)
    }

    func test_runAt_holdsTheJobBackUntilItsTime() async throws {
        let id = try await queue.submit(night(try file("later.wav", "later"), runAt: Date().addingTimeInterval(1.5)))
        let early = try await queue.claim(worker: "w", leaseDuration: 30)
        XCTAssertNil(early, "not before its time")
        let job = try await queue.job(id: id)
        XCTAssertGreaterThan(job?.availableAt ?? .distantPast, Date().addingTimeInterval(0.5))
        try await Task.sleep(nanoseconds: 1_800_000_000)
        let later = try await queue.claim(worker: "w", leaseDuration: 30)
        XCTAssertEqual(later?.job.id, id)
    }

    func test_malformedSubmissions_areRefused_andNothingIsQueued() async throws {
        let audio = try file("x.wav", "x")
        for bad in [night(audio, subject: ""), night(audio, subject: "  "), night(audio, queue: "no spaces")] {
            do {
                _ = try await queue.submit(bad)
                XCTFail("queued \(bad)")
            } catch let error as SleepCycleSdkError {
                guard case .invalidInput = error else { return XCTFail("\(error)") }
            }
        }
        let count = try await queue.jobs().count
        XCTAssertEqual(count, 0)
        // The database refuses an empty subject too (whoever writes the row).
        do {
            try await testDatabase.database().run { connection in
                try connection.execute(
                    "INSERT INTO night_jobs (subject_id, audio_path, start_time) VALUES ('', '/n.flac', now())")
            }
            XCTFail("an empty subject reached the table")
        } catch let error as FleetDatabaseError {
            XCTAssertEqual(error.sqlState, "23514")
        }
    }

    func test_prune_removesOldFinishedJobs_withResultsAndCheckpoints_andKeepsNightsUnlessAsked() async throws {
        // Three finished jobs (done, failed with a checkpoint, cancelled) and one queued.
        var ids: [Int64] = []
        for index in 0..<4 { ids.append(try await queue.submit(night(try file("p\(index).wav", "p\(index)")))) }
        let claimed = try await queue.claim(worker: "w", leaseDuration: 30)
        let lease = try XCTUnwrap(claimed)
        let result = AnalysisResult(
            sessionId: UUID(), startTime: lease.job.submission.startTime,
            endTime: lease.job.submission.startTime.addingTimeInterval(240))
        let completed = try await queue.complete(lease, result: result, worker: "w")
        XCTAssertTrue(completed)
        let claimedSecond = try await queue.claim(worker: "w", leaseDuration: 30)
        let second = try XCTUnwrap(claimedSecond)
        let saved = try await queue.saveCheckpoint(
            second, NightCheckpoint(journal: Data("journal".utf8), epochs: 3, writtenBy: "w"))
        XCTAssertTrue(saved)
        _ = try await queue.fail(second, .input("not audio"))
        _ = try await queue.cancel(jobId: ids[2])

        let young = try await queue.prune(olderThan: 3_600)
        XCTAssertEqual(young, NightQueuePruning(jobs: 0, results: 0, checkpoints: 0, nights: 0), "nothing is old yet")
        // Age the done and the failed job by two hours.
        let aged = "{\(ids[0]),\(ids[1])}"
        try await testDatabase.database().run { connection in
            try connection.execute(
                "UPDATE night_jobs SET finished_at = now() - interval '2 hours' WHERE id = ANY($1::bigint[])", [aged])
        }
        let pruned = try await queue.prune(olderThan: 3_600)
        XCTAssertEqual(pruned, NightQueuePruning(jobs: 2, results: 1, checkpoints: 1, nights: 0))
        let left = try await queue.jobs().map(\.id)
        XCTAssertEqual(left, [ids[2], ids[3]], "the young cancelled job and the queued job stay")
        let store = try SessionStore(address: testDatabase.address, subject: "ana")
        let kept = try await store.result(sessionId: result.sessionId)
        XCTAssertEqual(kept?.sessionId, result.sessionId, "the stored night stays")

        // Everything finished, nights included.
        let all = try await queue.prune(olderThan: 0, includingNights: true)
        XCTAssertEqual(all.jobs, 1)
        let remaining = try await queue.jobs().map(\.state)
        XCTAssertEqual(remaining, [.queued], "a queued job is never pruned")
        try await testDatabase.database().run { connection in
            try connection.execute(
                "UPDATE night_jobs SET state = 'done', finished_at = now() - interval '1 day' WHERE state = 'queued'")
        }
        // A done job whose night is still stored: pruned with its night, which leaves a tombstone.
        let withNight = try await queue.submit(night(try file("p9.wav", "p9")))
        let claimedLast = try await queue.claim(worker: "w", leaseDuration: 30)
        let last = try XCTUnwrap(claimedLast)
        XCTAssertEqual(last.job.id, withNight)
        let lastResult = AnalysisResult(
            sessionId: UUID(), startTime: last.job.submission.startTime,
            endTime: last.job.submission.startTime.addingTimeInterval(240))
        _ = try await queue.complete(last, result: lastResult, worker: "w")
        let anchorBefore = try await store.currentAnchor()
        let everything = try await queue.prune(olderThan: 0, includingNights: true)
        XCTAssertEqual(everything.nights, 1)
        let gone = try await store.result(sessionId: lastResult.sessionId)
        XCTAssertNil(gone)
        let anchorAfter = try await store.currentAnchor()
        XCTAssertEqual(anchorAfter.rawValue, anchorBefore.rawValue + 1, "the deletion is a change clients see")
    }

    func test_queueListAndPrune_fromTheCommandLine_withTheJSONContract() async throws {
        let audio = try file("listed.wav", "listed")
        let id = try await queue.submit(night(audio))
        let claimed = try await queue.claim(worker: "w", leaseDuration: 30)
        _ = try await queue.fail(try XCTUnwrap(claimed), .input("the audio is not a WAV file"))
        _ = try await queue.submit(night(try file("other.wav", "other"), queue: "reanalysis", priority: -5))
        let url = testDatabase.address.connectionString

        let failed = try runCommandLineTool([
            "queue", "list", "--state", "failed", "--format", "json", "--database", url,
        ])
        XCTAssertEqual(failed.status, 0, failed.standardError)
        XCTAssertEqual(try JSONSchemaValidator.errors(in: failed.standardOutput, schema: "queue-list"), [])
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(failed.standardOutput.utf8)) as? [String: Any])
        let jobs = try XCTUnwrap(document["jobs"] as? [[String: Any]])
        XCTAssertEqual(jobs.count, 1)
        XCTAssertEqual(jobs.first?["id"] as? Int, Int(id))
        XCTAssertEqual(jobs.first?["lastError"] as? String, "the audio is not a WAV file")
        let all = try runCommandLineTool(["queue", "list", "--database", url])
        XCTAssertEqual(all.status, 0, all.standardError)
        XCTAssertEqual(all.standardOutput.split(separator: "\n").count, 2, all.standardOutput)
        XCTAssertTrue(all.standardOutput.contains("the audio is not a WAV file"), all.standardOutput)
        let badState = try runCommandLineTool(["queue", "list", "--state", "lost", "--database", url])
        XCTAssertEqual(badState.status, 64)

        let pruned = try runCommandLineTool(["queue", "prune", "--older-than", "0s", "--database", url])
        XCTAssertEqual(pruned.status, 0, pruned.standardError)
        XCTAssertEqual(pruned.standardOutput, "pruned 1 jobs, 0 results, 0 checkpoints, 0 stored nights\n")
        let badAge = try runCommandLineTool(["queue", "prune", "--older-than", "soon", "--database", url])
        XCTAssertEqual(badAge.status, 64)
        let left = try await queue.jobs().map(\.submission.queue)
        XCTAssertEqual(left, ["reanalysis"])
    }

    func test_queueSubmit_refusesMalformedNights_with64_andDeduplicates() async throws {
        let audio = try file("cli.wav", "cli night")
        let url = testDatabase.address.connectionString
        let noStart = try runCommandLineTool(["queue", "submit", audio.path, "--subject", "ana", "--database", url])
        XCTAssertEqual(noStart.status, 64, noStart.standardError)
        let emptySubject = try runCommandLineTool(
            ["queue", "submit", audio.path, "--subject", "", "--start", "2026-12-01T23:00:00Z", "--database", url])
        XCTAssertEqual(emptySubject.status, 64, emptySubject.standardError)
        let submit = ["queue", "submit", audio.path, "--subject", "ana", "--start", "2026-12-01T23:00:00Z"]
        let first = try runCommandLineTool(submit + ["--database", url])
        XCTAssertEqual(first.status, 0, first.standardError)
        let second = try runCommandLineTool(submit + ["--database", url])
        XCTAssertEqual(second.status, 0, second.standardError)
        XCTAssertEqual(second.standardOutput, first.standardOutput, "the same job id")
        XCTAssertTrue(second.standardError.contains("already holds this night"), second.standardError)
        let delayed = try runCommandLineTool(
            submit + ["--key", "delayed", "--run-at", "2099-01-01T00:00:00Z", "--priority", "3", "--database", url])
        XCTAssertEqual(delayed.status, 0, delayed.standardError)
        let jobs = try await queue.jobs()
        XCTAssertEqual(jobs.count, 2)
        XCTAssertEqual(jobs.last?.idempotencyKey, "delayed")
        XCTAssertEqual(jobs.last?.submission.priority, 3)
        XCTAssertEqual(jobs.last?.availableAt, ISO8601DateFormatter().date(from: "2099-01-01T00:00:00Z"))
    }
}

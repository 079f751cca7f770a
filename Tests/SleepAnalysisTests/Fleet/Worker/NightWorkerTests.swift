import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Workers in this process on a real queue: every night analysed exactly once, bad nights failed without
/// stopping the others, stopping and cancelling.
final class NightWorkerTests: NightQueueTestCase {

    func test_twoWorkersOnOneQueue_analyseEachNightOnce_andABadNightFailsAlone() async throws {
        var ids: [Int64] = []
        for index in 0..<4 { ids.append(try await queue.submit(try QueueNights.submission(index, in: directory.url))) }
        let bad = try await queue.submit(try QueueNights.badSubmission(in: directory.url))

        let workers = try ["w1", "w2"].map {
            NightWorker(
                queue: queue,
                configuration: try QueueNights.configuration(name: $0, storage: directory.url, exitsWhenIdle: true))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in workers { group.addTask { try await worker.run() } }
            try await group.waitForAll()
        }

        let status = try await queue.status()
        XCTAssertEqual(status.count(.done), 4)
        XCTAssertEqual(status.count(.failed), 1)
        XCTAssertEqual(status.count(.queued) + status.count(.running), 0)
        let counts = try await QueueNights.resultCounts(testDatabase.database())
        XCTAssertEqual(counts, Dictionary(uniqueKeysWithValues: ids.map { ($0, 1) }), "one result per night")
        for (index, id) in ids.enumerated() {
            let job = try await queue.job(id: id)
            XCTAssertEqual(job?.attempts, 1, "job \(id) was analysed once")
            let result = try await queue.result(jobId: id)
            XCTAssertEqual(result?.startTime, AnalyzerNights.startTime(of: index))
            let covered = (result?.endTime.timeIntervalSince(AnalyzerNights.startTime(of: index))) ?? 0
            XCTAssertEqual(covered, Double(AnalyzerNights.nightSeconds), accuracy: 1, "the whole night")
            XCTAssertFalse(result?.sleepStagePredictions.isEmpty ?? true)
        }
        let failed = try await queue.job(id: bad)
        XCTAssertEqual(failed?.state, .failed)
        XCTAssertEqual(failed?.attempts, 1, "bad input is not retried")
        XCTAssertTrue(failed?.lastError?.hasPrefix("Invalid input") ?? false, failed?.lastError ?? "")
    }

    func test_stopReleasingJobs_givesTheRunningNightBack() async throws {
        let id = try await queue.submit(try QueueNights.submission(0, in: directory.url))
        let worker = NightWorker(
            queue: queue,
            configuration: try QueueNights.configuration(name: "w", storage: directory.url, pace: .speed(5)))
        let running = Task { try await worker.run() }
        let queue: NightQueue = queue
        let started = try await QueueNights.waitUntil(timeout: 30) { try await queue.job(id: id)?.state == .running }
        XCTAssertTrue(started)
        await worker.stop(releasingJobs: true)
        try await running.value

        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .queued)
        XCTAssertEqual(job?.attempts, 0, "a released job does not use up an attempt")
        let result = try await queue.result(jobId: id)
        XCTAssertNil(result)
    }

    func test_cancellingARunningJob_stopsItsWorkerOnIt_withoutAResult() async throws {
        let id = try await queue.submit(try QueueNights.submission(0, in: directory.url))
        let worker = NightWorker(
            queue: queue,
            configuration: try QueueNights.configuration(
                name: "w", storage: directory.url, leaseDuration: 0.9, pace: .speed(5)))
        let running = Task { try await worker.run() }
        let queue: NightQueue = queue
        let storage = directory.url.appendingPathComponent("w").path
        let started = try await QueueNights.waitUntil(timeout: 30) {
            let analysing = !((try? FileManager.default.contentsOfDirectory(atPath: storage)) ?? []).isEmpty
            return try await queue.job(id: id)?.state == .running && analysing
        }
        XCTAssertTrue(started, "the worker is analysing the night")
        let cancelled = try await queue.cancel(jobId: id)
        XCTAssertTrue(cancelled)
        let abandoned = try await QueueNights.waitUntil(timeout: 10) {
            let left = (try? FileManager.default.contentsOfDirectory(atPath: storage)) ?? []
            return left.isEmpty
        }
        XCTAssertTrue(abandoned, "the worker stopped analysing the cancelled night and removed its storage")
        await worker.stop()
        try await running.value
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .cancelled)
        let result = try await queue.result(jobId: id)
        XCTAssertNil(result)
    }

    func test_aWorkerWhoseLicenceIsRefused_givesTheNightBack_andStops() async throws {
        let id = try await queue.submit(try QueueNights.submission(0, in: directory.url))
        var configuration = try QueueNights.configuration(name: "unlicensed", storage: directory.url)
        configuration.trustedIssuerKeys = []
        let worker = NightWorker(queue: queue, configuration: configuration)
        do {
            try await worker.run()
            XCTFail("a worker with an untrusted licence kept working")
        } catch SleepCycleSdkError.invalidApiKey {
        }
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .queued, "the night is left for a licensed worker")
        XCTAssertEqual(job?.attempts, 0)
    }

    func test_aWorkerWithPeriodicPrune_removesFinishedJobs_andLeavesTheOthers() async throws {
        let bad = try await queue.submit(try QueueNights.badSubmission(in: directory.url))
        let later = try await queue.submit(
            NightSubmission(
                audio: try AnalyzerNights.write(index: 2, into: directory.url),
                startTime: AnalyzerNights.startTime(of: 2),
                subjectId: "later", runAt: Date().addingTimeInterval(3_600)))
        var configuration = try QueueNights.configuration(name: "pruning", storage: directory.url)
        configuration.pruneAge = 0
        configuration.pruneInterval = 1
        let worker = NightWorker(queue: queue, configuration: configuration)
        let running = Task { try await worker.run() }
        let queue: NightQueue = queue
        let pruned = try await QueueNights.waitUntil(timeout: 60) { try await queue.job(id: bad) == nil }
        await worker.stop()
        try await running.value
        XCTAssertTrue(pruned, "the failed job was pruned by the worker")
        let waiting = try await queue.job(id: later)
        XCTAssertEqual(waiting?.state, .queued, "a job that has not run is never pruned")
        let metrics = await worker.metricsText()
        XCTAssertTrue(metrics.contains("sleepanalysis_worker_pruned_jobs_total{worker=\"pruning\"} 1"), metrics)
    }
}

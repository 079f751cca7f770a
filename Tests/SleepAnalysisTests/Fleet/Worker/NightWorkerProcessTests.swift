import Foundation
import TestSupport
import XCTest

@_spi(Internal) @testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// `sleepanalysis worker` processes: one killed with SIGKILL mid-night is replaced by another worker, which
/// resumes the night from the journal checkpoint in PostgreSQL; SIGTERM stops one cleanly.
final class NightWorkerProcessTests: NightQueueTestCase {

    /// Starts `sleepanalysis worker` on the test database, its output in files under the test directory (its
    /// storage in `<directory>/<storage ?? name>`).
    private func startWorker(name: String, storage: String? = nil, _ extra: [String]) throws -> Process {
        let process = Process()
        process.executableURL = try builtCommandLineTool()
        process.arguments =
            [
                "worker", "--name", name, "--poll-seconds", "0.2", "--log-level", "warning", "--storage",
                directory.url.appendingPathComponent(storage ?? name).path, "--input-root", directory.url.path,
            ] + extra
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = testDatabase.address.connectionString
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let log = directory.url.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        return process
    }

    private func waitForExit(_ process: Process, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }
        return true
    }

    func test_aWorkerKilledMidNight_isReplaced_whichResumesTheNight_andItIsDoneOnce() async throws {
        let night = try QueueNights.submission(1, in: directory.url)
        let id = try await queue.submit(night)
        let doomed = try startWorker(name: "doomed", ["--pace", "8", "--lease-seconds", "2"])
        let queue: NightQueue = queue
        let checkpointed = try await QueueNights.waitUntil(timeout: 90) {
            try await queue.checkpoint(jobId: id).map { $0.epochs >= 2 } ?? false
        }
        XCTAssertTrue(checkpointed, "the first worker saved the night's journal")
        XCTAssertTrue(doomed.isRunning, "still analysing when killed")
        kill(doomed.processIdentifier, SIGKILL)
        doomed.waitUntilExit()
        let saved = try await queue.checkpoint(jobId: id)
        let checkpoint = try XCTUnwrap(saved)
        XCTAssertLessThan(checkpoint.epochs, AnalyzerNights.nightSeconds / 30, "killed mid-night")
        let journalFile = directory.url.appendingPathComponent("checkpoint.sqlite")
        try checkpoint.journal.write(to: journalFile)
        let journaledSession = try SessionJournal(databaseURL: journalFile).activeSessions().first?.sessionId

        let rescuer = NightWorker(
            queue: queue,
            configuration: try QueueNights.configuration(name: "rescuer", storage: directory.url, leaseDuration: 5))
        let rescuing = Task { try await rescuer.run() }
        let done = try await QueueNights.waitUntil(timeout: 120) { try await queue.job(id: id)?.state == .done }
        await rescuer.stop()
        try await rescuing.value

        XCTAssertTrue(done, "the night was finished by another worker")
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.attempts, 2, "taken once by the killed worker, once by the rescuer")
        let counts = try await QueueNights.resultCounts(testDatabase.database())
        XCTAssertEqual(counts, [id: 1])
        let writer = try await testDatabase.database().run {
            try $0.execute("SELECT written_by FROM night_results WHERE job_id = $1", [String(id)]).rows.first?[0]
        }
        XCTAssertEqual(writer, "rescuer")
        let leftover = try await queue.checkpoint(jobId: id)
        XCTAssertNil(leftover, "the checkpoint goes with completion")

        // The resumed night is the night analysed without interruption, to the last digit (session id aside).
        let stored = try await queue.result(jobId: id)
        let resumed = try XCTUnwrap(stored)
        let reference = try await AnalyzerNights.analyse(
            night.audio, startTime: night.startTime, storage: directory.url.appendingPathComponent("reference"),
            licence: try TestLicenses.make())
        XCTAssertEqual(try AnalyzerNights.comparable(resumed), try AnalyzerNights.comparable(reference))
        XCTAssertEqual(resumed.sessionId, journaledSession, "the session in the checkpoint was resumed, not restarted")
    }

    func test_SIGTERM_finishesTheRunningNight_andExitsCleanly() async throws {
        let id = try await queue.submit(try QueueNights.submission(2, in: directory.url))
        let worker = try startWorker(name: "draining", ["--pace", "30"])
        let queue: NightQueue = queue
        let claimed = try await QueueNights.waitUntil(timeout: 60) { try await queue.job(id: id)?.state == .running }
        XCTAssertTrue(claimed)
        kill(worker.processIdentifier, SIGTERM)
        XCTAssertTrue(waitForExit(worker, timeout: 90), "the worker exited after SIGTERM")
        XCTAssertEqual(worker.terminationStatus, 0)
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .done, "the running night was finished before exiting")
    }

    func test_SIGTERM_withNoDrainTime_releasesTheRunningNight() async throws {
        let id = try await queue.submit(try QueueNights.submission(3, in: directory.url))
        let worker = try startWorker(name: "releasing", ["--pace", "5", "--drain-seconds", "0"])
        let queue: NightQueue = queue
        let claimed = try await QueueNights.waitUntil(timeout: 60) { try await queue.job(id: id)?.state == .running }
        XCTAssertTrue(claimed)
        kill(worker.processIdentifier, SIGTERM)
        XCTAssertTrue(waitForExit(worker, timeout: 30), "the worker exited after SIGTERM")
        XCTAssertEqual(worker.terminationStatus, 0)
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .queued, "given back for another worker")
        XCTAssertEqual(job?.attempts, 0)
    }

    func test_aWorkerStartingWhereAKilledOneWorked_removesTheFoldersItLeft() async throws {
        let id = try await queue.submit(try QueueNights.submission(0, in: directory.url))
        let storage = directory.url.appendingPathComponent("shared-storage")
        let doomed = try startWorker(
            name: "killed", storage: "shared-storage", ["--pace", "8", "--lease-seconds", "2"])
        let queue: NightQueue = queue
        let running = try await QueueNights.waitUntil(timeout: 60) {
            try await queue.job(id: id)?.state == .running
                && ((try? FileManager.default.contentsOfDirectory(atPath: storage.path)) ?? []).contains {
                    $0.hasPrefix("job-\(id)-") && !$0.hasSuffix(".lock")
                }
        }
        XCTAssertTrue(running)
        kill(doomed.processIdentifier, SIGKILL)
        doomed.waitUntilExit()
        let left = try FileManager.default.contentsOfDirectory(atPath: storage.path).filter {
            $0.hasPrefix("job-") && !$0.hasSuffix(".lock")
        }
        XCTAssertEqual(left.count, 1, "the killed worker left its night's folder: \(left)")

        // Once the lease has expired, a worker on the same storage takes the night over (in a folder of its own,
        // which its run's lock keeps from any other worker's clean-up) after removing the killed one's.
        try await Task.sleep(nanoseconds: 3_000_000_000)
        let successor = try startWorker(name: "successor", storage: "shared-storage", ["--exit-when-idle"])
        XCTAssertTrue(waitForExit(successor, timeout: 120), "the successor took the night over and finished it")
        XCTAssertEqual(successor.terminationStatus, 0)
        let remaining = try FileManager.default.contentsOfDirectory(atPath: storage.path).filter {
            $0.hasPrefix("job-")
        }
        XCTAssertEqual(remaining, [], "neither the killed worker's folder nor the successor's own is left")
        let log = try String(
            contentsOf: directory.url.appendingPathComponent("successor.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("removed 1 folder(s) left by a worker that died: \(left[0])"), log)
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .done)
    }

    func test_aWorkerWhoseLoginIsRefused_saysSoOnce_andExits77() async throws {
        var wrong = try XCTUnwrap(URLComponents(string: testDatabase.address.connectionString))
        wrong.password = "not-the-password"
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = try XCTUnwrap(wrong.string)
        let began = Date()
        let output = try runCommandLineTool(
            ["worker", "--storage", directory.url.appendingPathComponent("refused").path], environment: environment,
            timeout: 30)
        XCTAssertEqual(output.status, 77, output.standardError)
        XCTAssertLessThan(Date().timeIntervalSince(began), 10, "not retried with back-off")
        XCTAssertEqual(
            output.standardError.components(separatedBy: "authentication failed").count - 1, 1, output.standardError)
        XCTAssertFalse(output.standardError.contains("not-the-password"), output.standardError)
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Database outages on a cluster of the test's own, stopped and started mid-test: a worker started before the
/// database waits and then drains the queue; an outage of more than twice the lease during a night loses neither
/// the finished analysis nor an attempt, although a rival tries to take the job over every 0.1 s.
final class NightWorkerOutageTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() async throws {
        try await super.setUp()
        directory = try TemporaryDirectory(prefix: "outage")
    }

    override func tearDown() async throws {
        directory?.remove()
        try await super.tearDown()
    }

    func test_aWorkerStartedBeforeTheDatabase_waitsWithBackoff_andThenDrainsTheQueue() async throws {
        let cluster = try PrivatePostgresCluster()
        let process = Process()
        process.executableURL = try builtCommandLineTool()
        process.arguments = [
            "worker", "--name", "early", "--poll-seconds", "0.2", "--input-root", directory.url.path, "--storage",
            directory.url.appendingPathComponent("storage").path, "--log-format", "json", "--metrics-address",
            "127.0.0.1:0",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = cluster.address.connectionString
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let log = directory.url.appendingPathComponent("early.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        // It gave up after 6 s before; now it waits.
        try await Task.sleep(nanoseconds: 8_000_000_000)
        XCTAssertTrue(process.isRunning, "the worker still waits for the database")
        let waiting = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(waiting.contains("waiting for the database"), waiting)
        XCTAssertFalse(waiting.contains(cluster.address.connectionString), "no password in the log")
        // JSON logs: every line is one object.
        var levels: [String] = []
        for line in waiting.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            levels.append(object?["level"] as? String ?? "none")
        }
        XCTAssertTrue(levels.contains("warning"), waiting)
        XCTAssertFalse(levels.contains("none"), waiting)
        // Its health endpoint already answers: waiting, with why.
        let range = try XCTUnwrap(waiting.range(of: "on http://127.0.0.1:"), waiting)
        let curl = Curl(port: try XCTUnwrap(UInt16(waiting[range.upperBound...].prefix { $0.isNumber })))
        let health = try curl.request("GET", "/health")
        XCTAssertEqual(health.status, 200, health.errorOutput)
        XCTAssertEqual(try JSONSchemaValidator.errors(in: health.text, schema: "worker-health"), [])
        let document = try JSONSerialization.jsonObject(with: health.body) as? [String: Any]
        XCTAssertEqual(document?["state"] as? String, "waiting", health.text)
        XCTAssertFalse(health.text.contains(cluster.address.connectionString), "no password in the health")
        let early = try curl.request("GET", "/metrics")
        XCTAssertEqual(early.status, 503)

        try cluster.start()
        try await NightQueue.migrate(address: cluster.address)
        let queue = try await NightQueue(address: cluster.address)
        let id = try await queue.submit(try QueueNights.submission(2, in: directory.url))
        let done = try await QueueNights.waitUntil(timeout: 120) { try await queue.job(id: id)?.state == .done }
        XCTAssertTrue(done, "the waiting worker analysed the night once the database came")
        let metrics = try curl.request("GET", "/metrics")
        XCTAssertEqual(metrics.status, 200, "the same port serves the worker's metrics now")
        XCTAssertTrue(
            metrics.text.contains("sleepanalysis_worker_jobs_completed_total{worker=\"early\"} 1"), metrics.text)
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        XCTAssertEqual(process.terminationStatus, 0)
        await queue.close()
        try cluster.stop()
    }

    func test_anOutageOfTwiceTheLease_duringANight_givesOneResult_andNoExtraAttempt() async throws {
        let cluster = try PrivatePostgresCluster()
        try cluster.start()
        try await NightQueue.migrate(address: cluster.address)
        let lease: TimeInterval = 4
        let queue = try await NightQueue(address: cluster.address)
        let id = try await queue.submit(try QueueNights.submission(3, in: directory.url))
        // The holder analyses at 40× real time (6 s for the 4-minute night) and tries the database itself, once a
        // call, so that the test sees its own back-off.
        let holderQueue = try await NightQueue(
            address: cluster.address, reconnect: FleetDatabaseReconnectPolicy(attempts: 1))
        let holder = NightWorker(
            queue: holderQueue,
            configuration: try QueueNights.configuration(
                name: "holder", storage: directory.url, leaseDuration: lease, pace: .speed(40)))
        let holding = Task { try await holder.run() }
        let claimed = try await QueueNights.waitUntil(timeout: 60) { try await queue.job(id: id)?.state == .running }
        XCTAssertTrue(claimed)
        // A rival tries to take the job over every 0.1 s, through the outage and after it.
        let rivalQueue = try await NightQueue(
            address: cluster.address, reconnect: FleetDatabaseReconnectPolicy(attempts: 1))
        let rivalling = Task { () -> [Int64] in
            var taken: [Int64] = []
            while !Task.isCancelled {
                if let lease = try? await rivalQueue.claim(worker: "rival", leaseDuration: lease) {
                    taken.append(lease.job.id)
                }
                try? await Task.sleep(nanoseconds: 100_000_000)
            }
            return taken
        }

        try cluster.stop()
        let outage = Date()
        try await Task.sleep(nanoseconds: UInt64((2 * lease + 2) * 1_000_000_000))
        try cluster.start()
        XCTAssertGreaterThan(Date().timeIntervalSince(outage), 2 * lease)
        // The test's own connection broke with the server: its first call after the restart fails.
        let done = try await QueueNights.waitUntil(timeout: 45) { (try? await queue.job(id: id))?.state == .done }
        XCTAssertTrue(done)
        rivalling.cancel()
        let taken = await rivalling.value
        XCTAssertEqual(taken, [], "the rival took nothing over")
        await holder.stop()
        try await holding.value

        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.attempts, 1, "the outage spent no attempt")
        let database = PostgresDatabase(address: cluster.address)
        let writers = try await database.run { connection in
            try connection.execute("SELECT written_by FROM night_results WHERE job_id = $1", [String(id)]).rows.map {
                try $0.text(0)
            }
        }
        XCTAssertEqual(writers, ["holder"], "one result, the one analysed through the outage")
        let metrics = await holder.metricsText()
        XCTAssertTrue(metrics.contains("sleepanalysis_worker_results_kept_total{worker=\"holder\"} 1"), metrics)
        XCTAssertTrue(metrics.contains("sleepanalysis_worker_jobs_completed_total{worker=\"holder\"} 1"), metrics)
        await database.close()
        await queue.close()
        await holderQueue.close()
        await rivalQueue.close()
        try cluster.stop()
    }

    func test_aWorkerStoppedDuringAnOutage_leavesItsFinishedResult_whichTheNextWorkerStores() async throws {
        let cluster = try PrivatePostgresCluster()
        try cluster.start()
        try await NightQueue.migrate(address: cluster.address)
        let queue = try await NightQueue(address: cluster.address)
        let id = try await queue.submit(try QueueNights.submission(0, in: directory.url))
        let storage = directory.url.appendingPathComponent("shared-storage")
        let process = Process()
        process.executableURL = try builtCommandLineTool()
        process.arguments = [
            "worker", "--name", "stopped", "--poll-seconds", "0.2", "--input-root", directory.url.path, "--storage",
            storage.path, "--pace", "40", "--lease-seconds", "4", "--drain-seconds", "0",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = cluster.address.connectionString
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let log = directory.url.appendingPathComponent("stopped.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let claimed = try await QueueNights.waitUntil(timeout: 60) { try await queue.job(id: id)?.state == .running }
        XCTAssertTrue(claimed)

        try cluster.stop()
        let kept = try await QueueNights.waitUntil(timeout: 90) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("the result is kept until it answers")
        }
        XCTAssertTrue(kept, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        XCTAssertEqual(process.terminationStatus, 0)
        let files = try FileManager.default.contentsOfDirectory(
            atPath: storage.appendingPathComponent("pending-results").path)
        XCTAssertEqual(files.count, 1, "the finished result is on disk: \(files)")

        try cluster.start()
        var configuration = try QueueNights.configuration(name: "next", storage: directory.url, exitsWhenIdle: true)
        configuration.storageRoot = storage
        configuration.downloadDirectory = storage.appendingPathComponent("downloads")
        let nextQueue = try await NightQueue(address: cluster.address)
        let next = NightWorker(queue: nextQueue, configuration: configuration)
        try await next.run()

        let job = try await nextQueue.job(id: id)
        XCTAssertEqual(job?.state, .done)
        XCTAssertEqual(job?.attempts, 1, "the night was not analysed again")
        let left = try FileManager.default.contentsOfDirectory(
            atPath: storage.appendingPathComponent("pending-results").path)
        XCTAssertEqual(left, [])
        let metrics = await next.metricsText()
        XCTAssertTrue(metrics.contains("sleepanalysis_worker_claims_total{worker=\"next\"} 0"), metrics)
        XCTAssertTrue(metrics.contains("sleepanalysis_worker_jobs_completed_total{worker=\"next\"} 1"), metrics)
        await nextQueue.close()
        await queue.close()
        try cluster.stop()
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Observability: `queue metrics` prints the queue's Prometheus gauges; a `sleepanalysis worker` with
/// `--metrics-address` serves `/metrics` and `/health` over HTTP (libmicrohttpd), fetched here with the real curl:
/// the counters change as the worker claims, analyses and fails nights.
final class NightWorkerMetricsTests: NightQueueTestCase {
    /// The value of the sample `name` (with its labels, as written) in Prometheus text.
    private func sample(_ text: String, _ name: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    func test_queueMetrics_printsJobsByQueueAndState() async throws {
        _ = try await queue.submit(try QueueNights.submission(0, in: directory.url))
        _ = try await queue.submit(
            NightSubmission(
                audio: try QueueNights.submission(1, in: directory.url).audio,
                startTime: AnalyzerNights.startTime(of: 1),
                subjectId: "bo", queue: "reanalysis", priority: -1))
        let output = try runCommandLineTool(["queue", "metrics", "--database", testDatabase.address.connectionString])
        XCTAssertEqual(output.status, 0, output.standardError)
        let text = output.standardOutput
        XCTAssertTrue(text.contains("# TYPE sleepanalysis_queue_jobs gauge"), text)
        XCTAssertEqual(sample(text, "sleepanalysis_queue_jobs{queue=\"default\",state=\"queued\"}"), 1)
        XCTAssertEqual(sample(text, "sleepanalysis_queue_jobs{queue=\"reanalysis\",state=\"queued\"}"), 1)
        XCTAssertEqual(sample(text, "sleepanalysis_queue_jobs{queue=\"default\",state=\"done\"}"), 0)
        XCTAssertGreaterThanOrEqual(
            sample(text, "sleepanalysis_queue_oldest_ready_seconds{queue=\"default\"}") ?? -1, 0)
    }

    func test_aWorkersMetricsEndpoint_servesCountersThatChangeAsJobsRun_andItsHealth() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            throw XCTSkip("needs curl (Tools/install-dependencies.sh)")
        }
        let process = Process()
        process.executableURL = try builtCommandLineTool()
        process.arguments = [
            "worker", "--name", "observed", "--poll-seconds", "0.2", "--input-root", directory.url.path, "--storage",
            directory.url.appendingPathComponent("storage").path, "--metrics-address", "127.0.0.1:0",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = testDatabase.address.connectionString
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let log = directory.url.appendingPathComponent("observed.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        var port: UInt16?
        let announced = try await QueueNights.waitUntil(timeout: 30) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard let range = text.range(of: "on http://127.0.0.1:") else { return false }
            port = UInt16(text[range.upperBound...].prefix { $0.isNumber })
            return port != nil
        }
        XCTAssertTrue(announced, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        let curl = Curl(port: try XCTUnwrap(port))

        let before = try curl.request("GET", "/metrics")
        XCTAssertEqual(before.status, 200, before.errorOutput)
        XCTAssertEqual(before.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
        XCTAssertEqual(sample(before.text, "sleepanalysis_worker_claims_total{worker=\"observed\"}"), 0)
        XCTAssertEqual(sample(before.text, "sleepanalysis_worker_database_up{worker=\"observed\"}"), 1)
        let health = try curl.request("GET", "/health")
        XCTAssertEqual(health.status, 200)
        XCTAssertEqual(try JSONSchemaValidator.errors(in: health.text, schema: "worker-health"), [])
        let healthDocument = try JSONSerialization.jsonObject(with: health.body) as? [String: Any]
        XCTAssertEqual(healthDocument?["state"] as? String, "working", health.text)
        XCTAssertEqual(healthDocument?["status"] as? String, "ok", health.text)

        let good = try await queue.submit(try QueueNights.submission(0, in: directory.url))
        let bad = try await queue.submit(try QueueNights.badSubmission(in: directory.url))
        let queue: NightQueue = queue
        let ended = try await QueueNights.waitUntil(timeout: 120) {
            let goodState = try await queue.job(id: good)?.state
            let badState = try await queue.job(id: bad)?.state
            return goodState == .done && badState == .failed
        }
        XCTAssertTrue(ended)
        let after = try curl.request("GET", "/metrics")
        XCTAssertEqual(after.status, 200)
        let text = after.text
        XCTAssertEqual(sample(text, "sleepanalysis_worker_claims_total{worker=\"observed\"}"), 2, text)
        XCTAssertEqual(sample(text, "sleepanalysis_worker_jobs_completed_total{worker=\"observed\"}"), 1, text)
        XCTAssertEqual(
            sample(text, "sleepanalysis_worker_failures_total{worker=\"observed\",class=\"input\"}"), 1, text)
        XCTAssertEqual(sample(text, "sleepanalysis_worker_analysis_seconds_count{worker=\"observed\"}"), 1, text)
        XCTAssertGreaterThan(sample(text, "sleepanalysis_worker_analysis_seconds_sum{worker=\"observed\"}") ?? 0, 0)
        XCTAssertEqual(
            sample(text, "sleepanalysis_worker_claim_latency_seconds_bucket{worker=\"observed\",le=\"+Inf\"}"), 2,
            text)
        XCTAssertEqual(sample(text, "sleepanalysis_queue_jobs{queue=\"default\",state=\"done\"}"), 1, text)
        XCTAssertEqual(sample(text, "sleepanalysis_queue_jobs{queue=\"default\",state=\"failed\"}"), 1, text)
        XCTAssertNotNil(sample(text, "sleepanalysis_worker_database_reconnects_total{worker=\"observed\"}"))
        XCTAssertNotNil(sample(text, "sleepanalysis_worker_leases_lost_total{worker=\"observed\"}"))
        let notFound = try curl.request("GET", "/nothing")
        XCTAssertEqual(notFound.status, 404)

        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        XCTAssertEqual(process.terminationStatus, 0)
        let gone = try curl.request("GET", "/metrics", timeout: 5)
        XCTAssertNotEqual(gone.exitStatus, 0, "the endpoint ends with the worker")
    }
}

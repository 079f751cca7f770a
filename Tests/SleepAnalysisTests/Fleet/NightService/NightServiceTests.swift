import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// The night service on 127.0.0.1 in front of a real PostgreSQL and a real worker, driven with `curl`.
final class NightServiceTests: NightQueueTestCase {
    private var service: NightService!
    private var keys: (a: String, b: String, trusted: String)!
    private var curl: Curl!
    private var chunkDirectory: URL!

    override func setUp() async throws {
        try await super.setUp()
        try await NightService.migrate(address: testDatabase.address)
        keys = try ServiceNights.tenantKeys()
        chunkDirectory = directory.url.appendingPathComponent("chunks")
        service = try NightService(
            configuration: NightServiceConfiguration(
                http: HTTPServerConfiguration(connectionTimeout: 5, shutdownGracePeriod: 1),
                chunkDirectory: chunkDirectory, trustedIssuerKeys: [keys.trusted], maximumChunkBytes: 2 << 20),
            address: testDatabase.address)
        curl = Curl(port: service.port)
    }

    override func tearDown() async throws {
        service?.stop()
        try await super.tearDown()
    }

    private func auth(_ key: String) -> [String] { ["Authorization: Bearer \(key)"] }

    private func createSession(key: String, user: String, start: String) throws -> String {
        let reply = try curl.request(
            "POST", "/v1/sessions", headers: auth(key) + ["Content-Type: application/json"],
            body: Data(#"{"userId": "\#(user)", "startTime": "\#(start)"}"#.utf8))
        XCTAssertEqual(reply.status, 201, reply.text)
        return try XCTUnwrap(try ServiceNights.object(reply.body)["sessionId"] as? String)
    }

    private func put(
        _ key: String, _ session: String, _ kind: String, _ sequence: Int, _ file: URL
    ) throws
        -> Curl.Reply
    {
        try curl.request("PUT", "/v1/sessions/\(session)/\(kind)/\(sequence)", headers: auth(key), bodyFile: file)
    }

    func test_aNightUploadedInChunks_givesTheResultAnalyzeGivesForTheWholeFile_andDeleteErasesTheUser() async throws {
        let night = try ServiceNights.write(into: directory.url)
        XCTAssertEqual(night.chunks.count, 60)
        let accelerometer = try ServiceNights.accelerometer(parts: 3, into: directory.url)
        let start = "2026-12-01T23:00:00Z"
        let session = try createSession(key: keys.a, user: "ana", start: start)

        // Chunks 0…59 in order, except 7 before 6 and 31 before 30; chunk 12 twice.
        var order = Array(0..<60)
        order.swapAt(6, 7)
        order.swapAt(30, 31)
        for sequence in order {
            if sequence == 7 {
                let reply = try put(keys.a, session, "audio", 7, night.chunks[7])
                XCTAssertEqual(reply.status, 201, reply.text)
                let state = try ServiceNights.object(
                    try curl.request("GET", "/v1/sessions/\(session)", headers: auth(keys.a)).body)
                XCTAssertEqual(state["state"] as? String, "uploading")
                let missing = try XCTUnwrap(state["missing"] as? [[String: Any]])
                XCTAssertEqual(missing.count, 1)
                XCTAssertEqual(missing.first?["kind"] as? String, "audio")
                XCTAssertEqual(missing.first?["sequence"] as? Int, 6)
                continue
            }
            let reply = try put(keys.a, session, "audio", sequence, night.chunks[sequence])
            XCTAssertEqual(reply.status, 201, "chunk \(sequence): \(reply.text)")
        }
        let again = try put(keys.a, session, "audio", 12, night.chunks[12])
        XCTAssertEqual(again.status, 200, again.text)
        XCTAssertEqual(try ServiceNights.object(again.body)["outcome"] as? String, "unchanged")
        let conflicting = try put(keys.a, session, "audio", 12, night.chunks[13])
        XCTAssertEqual(conflicting.status, 409, conflicting.text)
        for (index, chunk) in accelerometer.chunks.enumerated().reversed() {
            XCTAssertEqual(try put(keys.a, session, "accelerometer", index, chunk).status, 201)
        }

        // Other tenants, no key, a bad key, an oversized chunk, a file that is not audio.
        XCTAssertEqual(try curl.request("GET", "/v1/sessions/\(session)", headers: auth(keys.b)).status, 404)
        XCTAssertEqual(try put(keys.b, session, "audio", 60, night.chunks[0]).status, 404)
        XCTAssertEqual(try curl.request("GET", "/v1/sessions/\(session)").status, 401)
        XCTAssertEqual(try curl.request("GET", "/v1/sessions/\(session)", headers: auth(keys.a + "x")).status, 401)
        let large = directory.url.appendingPathComponent("large.wav")
        try Data(repeating: 7, count: (2 << 20) + 1).write(to: large)
        XCTAssertEqual(try put(keys.a, session, "audio", 60, large).status, 413)
        XCTAssertEqual(try put(keys.a, session, "audio", 60, accelerometer.chunks[0]).status, 415)

        let state = try ServiceNights.object(
            try curl.request("GET", "/v1/sessions/\(session)", headers: auth(keys.a)).body)
        XCTAssertEqual((state["missing"] as? [Any])?.count, 0)
        XCTAssertEqual((state["chunks"] as? [String: Int])?["audio"], 60)
        XCTAssertEqual((state["chunks"] as? [String: Int])?["accelerometer"], 3)

        let finish = try curl.request("POST", "/v1/sessions/\(session)/finish", headers: auth(keys.a))
        XCTAssertEqual(finish.status, 202, finish.text)
        XCTAssertEqual(try ServiceNights.object(finish.body)["state"] as? String, "queued")
        XCTAssertEqual(
            try put(keys.a, session, "audio", 60, night.chunks[0]).status, 409, "finished sessions take no chunk")
        XCTAssertEqual(try curl.request("GET", "/v1/sessions/\(session)/result", headers: auth(keys.a)).status, 409)

        // `analyze` on the whole file, beside the worker on the chunks.
        let analyze = Task.detached { [directory] in
            try runCommandLineTool(
                [
                    "analyze", night.whole.path, "--accelerometer", accelerometer.whole.path, "--start", start,
                    "--storage", directory!.url.appendingPathComponent("analyze").path, "--format", "json", "--quiet",
                ], timeout: 600)
        }
        let worker = NightWorker(
            queue: queue,
            configuration: try QueueNights.configuration(name: "w", storage: directory.url, exitsWhenIdle: true))
        try await worker.run()
        let reference = try await analyze.value
        XCTAssertEqual(reference.status, 0, reference.standardError)

        let done = try ServiceNights.object(
            try curl.request("GET", "/v1/sessions/\(session)", headers: auth(keys.a)).body)
        XCTAssertEqual(done["state"] as? String, "done", "\(done)")
        let result = try curl.request("GET", "/v1/sessions/\(session)/result", headers: auth(keys.a))
        XCTAssertEqual(result.status, 200, result.text)
        XCTAssertEqual(result.headers["content-type"], "application/json")
        let served = try ServiceNights.object(result.body)
        let expected = try ServiceNights.object(Data(reference.standardOutput.utf8))
        let servedId = try XCTUnwrap(served["sessionId"] as? String)
        let expectedId = try XCTUnwrap(expected["sessionId"] as? String)
        XCTAssertEqual(servedId, done["analysisSessionId"] as? String)
        // The same document, member for member, but for the analysis session's id (a new one per analysis).
        let canonical = { (object: [String: Any]) in
            String(
                decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted]),
                as: UTF8.self)
        }
        let servedText = try canonical(served).replacingOccurrences(of: servedId, with: expectedId)
        XCTAssertGreaterThan(servedText.count, 10_000)
        XCTAssertTrue(servedText == (try canonical(expected)), "the service's result is analyze's")
        XCTAssertEqual(try JSONSchemaValidator.errors(in: result.text, schema: "analysis-result"), [])

        let report = try curl.request("GET", "/v1/sessions/\(session)/report", headers: auth(keys.a))
        XCTAssertEqual(report.status, 200)
        XCTAssertEqual(report.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(report.text.hasPrefix("<!DOCTYPE html>"))
        XCTAssertEqual(try curl.request("GET", "/v1/sessions/\(session)/report", headers: auth(keys.b)).status, 404)

        let nights = try curl.request(
            "GET", "/v1/users/ana/nights?from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00Z", headers: auth(keys.a))
        XCTAssertEqual(nights.status, 200, nights.text)
        XCTAssertEqual((try ServiceNights.object(nights.body)["nights"] as? [Any])?.count, 1)
        XCTAssertEqual(try JSONSchemaValidator.errors(in: nights.text, schema: "night-history"), [])
        let none = try curl.request("GET", "/v1/users/ana/nights?from=2026-12-02T00:00:00Z", headers: auth(keys.a))
        XCTAssertEqual((try ServiceNights.object(none.body)["nights"] as? [Any])?.count, 0)
        let otherTenant = try curl.request("GET", "/v1/users/ana/nights", headers: auth(keys.b))
        XCTAssertEqual((try ServiceNights.object(otherTenant.body)["nights"] as? [Any])?.count, 0)

        // DELETE: another tenant's "ana" is nobody; then every row and file of the user is gone.
        XCTAssertEqual(try curl.request("DELETE", "/v1/users/ana", headers: auth(keys.b)).status, 404)
        XCTAssertEqual(try curl.request("DELETE", "/v1/users/ana", headers: auth(keys.a)).status, 204)
        XCTAssertEqual(try curl.request("GET", "/v1/sessions/\(session)", headers: auth(keys.a)).status, 404)
        XCTAssertEqual(try curl.request("DELETE", "/v1/users/ana", headers: auth(keys.a)).status, 404)
        let counts = try await testDatabase.database().run { connection in
            try [
                "night_service_sessions", "night_service_chunks", "night_jobs", "night_results", "night_checkpoints",
                "session_nights", "session_stage_samples", "session_store_subjects", "session_tombstones",
            ].map { table in try connection.execute("SELECT count(*) FROM \(table)").rows[0].int64(0) }
        }
        XCTAssertEqual(counts, [0, 0, 0, 0, 0, 0, 0, 0, 0], "no row of the user is left")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: chunkDirectory.path), [], "no file is left")
    }

    func test_deletingAUserWhileAWorkerAnalysesTheirNight_leavesNothingBehind() async throws {
        let night = try ServiceNights.write(seconds: 120, into: directory.url)
        let session = try createSession(key: keys.a, user: "bo", start: "2026-12-02T23:00:00Z")
        for (sequence, chunk) in night.chunks.enumerated() {
            XCTAssertEqual(try put(keys.a, session, "audio", sequence, chunk).status, 201)
        }
        XCTAssertEqual(try curl.request("POST", "/v1/sessions/\(session)/finish", headers: auth(keys.a)).status, 202)

        // A worker replaying the night at 10 times real time: about 12 s.
        let worker = NightWorker(
            queue: queue,
            configuration: try QueueNights.configuration(
                name: "w", storage: directory.url, leaseDuration: 3, pace: .speed(10)))
        let running = Task { try await worker.run() }
        let curl: Curl = curl
        let (keys, chunks) = (keys!, chunkDirectory!)
        let analysing = try await QueueNights.waitUntil(timeout: 30) {
            let state = try curl.request("GET", "/v1/sessions/\(session)", headers: ["Authorization: Bearer \(keys.a)"])
            return (try? ServiceNights.object(state.body)["state"] as? String) == "analysing"
        }
        XCTAssertTrue(analysing)
        XCTAssertEqual(try curl.request("DELETE", "/v1/users/bo", headers: auth(keys.a)).status, 204)

        // The worker finds its lease gone at its next renewal and stops the night without writing anything.
        let storage = directory.url.appendingPathComponent("w").path
        let dropped = try await QueueNights.waitUntil(timeout: 30) {
            let left = FileManager.default.enumerator(atPath: storage)?.allObjects as? [String] ?? []
            return left.allSatisfy { $0 == "downloads" }
        }
        XCTAssertTrue(dropped, "the worker gave the night up")
        try await Task.sleep(nanoseconds: 1_500_000_000)
        await worker.stop()
        try await running.value
        let counts = try await testDatabase.database().run { connection in
            try [
                "night_service_sessions", "night_service_chunks", "night_jobs", "night_results", "night_checkpoints",
                "session_nights", "session_stage_samples", "session_store_subjects", "session_tombstones",
            ].map { table in try connection.execute("SELECT count(*) FROM \(table)").rows[0].int64(0) }
        }
        XCTAssertEqual(counts, [0, 0, 0, 0, 0, 0, 0, 0, 0], "no row of the user is left")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: chunks.path), [], "no file is left")
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// The night service's limits and its command: slow clients, request rates, chunks per session, a service
/// without its tables, and `sleepanalysis serve`.
final class NightServiceLimitsTests: NightQueueTestCase {
    private var keys: (a: String, b: String, trusted: String)!

    override func setUp() async throws {
        try await super.setUp()
        keys = try ServiceNights.tenantKeys()
    }

    private func start(
        rate: Double = 200, burst: Int = 400, maximumChunks: Int = 10_000, timeout: Int = 5
    ) throws -> NightService {
        try NightService(
            configuration: NightServiceConfiguration(
                http: HTTPServerConfiguration(connectionTimeout: timeout, shutdownGracePeriod: 1),
                chunkDirectory: directory.url.appendingPathComponent("chunks"), trustedIssuerKeys: [keys.trusted],
                maximumChunksPerSession: maximumChunks, requestsPerSecondPerTenant: rate, requestBurstPerTenant: burst),
            address: testDatabase.address)
    }

    private func newSession(_ curl: Curl, key: String) throws -> String {
        let reply = try curl.request(
            "POST", "/v1/sessions", headers: ["Authorization: Bearer \(key)"],
            body: Data(#"{"userId": "u", "startTime": "2026-12-01T23:00:00.000Z"}"#.utf8))
        XCTAssertEqual(reply.status, 201, reply.text)
        return try XCTUnwrap(try ServiceNights.object(reply.body)["sessionId"] as? String)
    }

    func test_additionalRoutes_areServedBesideTheServicesOwn() async throws {
        try await NightService.migrate(address: testDatabase.address)
        var configuration = NightServiceConfiguration(
            chunkDirectory: directory.url.appendingPathComponent("chunks"), trustedIssuerKeys: [keys.trusted])
        configuration.additionalRoutes = [.respond(.get, "/metrics") { _ in .text(200, "nights_total 0") }]
        let service = try NightService(configuration: configuration, address: testDatabase.address)
        defer { service.stop() }
        let curl = Curl(port: service.port)
        XCTAssertEqual(try curl.request("GET", "/metrics").text, "nights_total 0\n")
        XCTAssertEqual(try curl.request("GET", "/healthz").status, 200)
    }

    func test_aServiceWithoutItsTables_refusesToStart() async throws {
        XCTAssertThrowsError(try start()) { error in
            XCTAssertEqual((error as? FleetDatabaseError)?.kind, .unexpectedResult, "\(error)")
            XCTAssertTrue("\(error)".contains("night-service"), "\(error)")
        }
    }

    func test_aClientSendingItsHeadersAByteASecond_holdsUpNoOther() async throws {
        try await NightService.migrate(address: testDatabase.address)
        let service = try start(timeout: 3)
        defer { service.stop() }
        let curl = Curl(port: service.port)
        let night = try ServiceNights.write(seconds: 60, into: directory.url)

        // Three clients send a PUT's header fields one byte a second.
        let slowClients = try (0..<3).map { _ in try RawTCPClient(port: service.port) }
        let request = "PUT /v1/sessions/x/audio/0 HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(keys.a)\r\n"
        let sending = Thread {
            for character in request.prefix(8) {
                for client in slowClients { client.send(String(character)) }
                Thread.sleep(forTimeInterval: 1)
            }
        }
        sending.start()
        try await Task.sleep(nanoseconds: 1_500_000_000)

        let begun = Date()
        let session = try newSession(curl, key: keys.a)
        for (index, chunk) in night.chunks.enumerated() {
            let reply = try curl.request(
                "PUT", "/v1/sessions/\(session)/audio/\(index)", headers: ["Authorization: Bearer \(keys.a)"],
                bodyFile: chunk)
            XCTAssertEqual(reply.status, 201, reply.text)
        }
        let state = try curl.request("GET", "/v1/sessions/\(session)", headers: ["Authorization: Bearer \(keys.a)"])
        XCTAssertEqual(state.status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(begun), 5, "the others were served while the slow ones sent")
        XCTAssertEqual(try curl.request("GET", "/healthz").status, 200)
    }

    func test_aTenantOverItsRate_getsA429_whileAnotherIsServed() async throws {
        try await NightService.migrate(address: testDatabase.address)
        // A token every 5 seconds, 3 at once: five quick requests find the bucket empty after three.
        let service = try start(rate: 0.2, burst: 3)
        defer { service.stop() }
        let curl = Curl(port: service.port)
        let statuses = try (0..<5).map { _ in
            try curl.request("GET", "/v1/users/u/nights", headers: ["Authorization: Bearer \(keys.a)"])
        }
        XCTAssertEqual(statuses.map(\.status), [200, 200, 200, 429, 429])
        let wait = try XCTUnwrap(statuses[3].headers["retry-after"].flatMap { Int($0) })
        XCTAssertTrue((1...5).contains(wait), "Retry-After: \(wait)")
        XCTAssertEqual(try ServiceNights.object(statuses[3].body)["error"] as? String, "rate-limited")
        let other = try curl.request("GET", "/v1/users/u/nights", headers: ["Authorization: Bearer \(keys.b)"])
        XCTAssertEqual(other.status, 200, "another tenant has its own bucket")
        try await Task.sleep(nanoseconds: UInt64(wait) * 1_000_000_000 + 100_000_000)
        XCTAssertEqual(
            try curl.request("GET", "/v1/users/u/nights", headers: ["Authorization: Bearer \(keys.a)"]).status, 200)
    }

    func test_chunksPastTheSessionsLimit_andBadRequests_areRefused() async throws {
        try await NightService.migrate(address: testDatabase.address)
        let service = try start(maximumChunks: 2)
        defer { service.stop() }
        let curl = Curl(port: service.port)
        let auth = ["Authorization: Bearer \(keys.a)"]
        let session = try newSession(curl, key: keys.a)
        let night = try ServiceNights.write(seconds: 90, into: directory.url)
        XCTAssertEqual(
            try curl.request("PUT", "/v1/sessions/\(session)/audio/1", headers: auth, bodyFile: night.chunks[1]).status,
            201)
        let past = try curl.request("PUT", "/v1/sessions/\(session)/audio/2", headers: auth, bodyFile: night.chunks[2])
        XCTAssertEqual(past.status, 409, past.text)
        XCTAssertEqual(try ServiceNights.object(past.body)["error"] as? String, "too-many-chunks")
        XCTAssertEqual(
            try curl.request("PUT", "/v1/sessions/\(session)/audio/-1", headers: auth, bodyFile: night.chunks[0])
                .status, 400)
        let gap = try curl.request("POST", "/v1/sessions/\(session)/finish", headers: auth)
        XCTAssertEqual(gap.status, 409, gap.text)
        XCTAssertEqual(try ServiceNights.object(gap.body)["error"] as? String, "missing-chunks")
        let notAudio = directory.url.appendingPathComponent("noise.wav")
        try Data("RIFF but nothing else".utf8).write(to: notAudio)
        XCTAssertEqual(
            try curl.request("PUT", "/v1/sessions/\(session)/audio/0", headers: auth, bodyFile: notAudio).status, 422)
        XCTAssertEqual(
            try curl.request("PUT", "/v1/sessions/\(session)/heart-rate/0", headers: auth, body: Data([0, 1, 2]))
                .status, 422)
        XCTAssertEqual(
            try curl.request("POST", "/v1/sessions", headers: auth, body: Data(#"{"userId": 3}"#.utf8)).status, 400)
        XCTAssertEqual(try curl.request("GET", "/v1/sessions/not-a-uuid", headers: auth).status, 404)
        XCTAssertEqual(try curl.request("GET", "/v1/users/u/nights?from=yesterday", headers: auth).status, 400)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(
                atPath: directory.url.appendingPathComponent("chunks").appendingPathComponent(session.lowercased())
                    .appendingPathComponent("audio").path),
            ["00000001.flac"], "refused chunks leave no file")
    }

    func test_aLostDatabase_isA503_andLogged_andHealthSaysSo() async throws {
        try await NightService.migrate(address: testDatabase.address)
        let logger = RecordingLogger()
        let service = try NightService(
            configuration: NightServiceConfiguration(
                chunkDirectory: directory.url.appendingPathComponent("chunks"), trustedIssuerKeys: [keys.trusted],
                logLevel: .info, logger: logger),
            address: testDatabase.address)
        defer { service.stop() }
        let curl = Curl(port: service.port)
        _ = try newSession(curl, key: keys.a)
        await queue.close()
        await testDatabase.drop()

        let lost = try curl.request("GET", "/v1/users/u/nights", headers: ["Authorization: Bearer \(keys.a)"])
        XCTAssertEqual(lost.status, 503, lost.text)
        XCTAssertEqual(try ServiceNights.object(lost.body)["error"] as? String, "unavailable")
        XCTAssertEqual(try curl.request("GET", "/healthz").status, 503)
        let errors = logger.messages.filter { $0.level == .error }.map(\.message)
        XCTAssertTrue(
            errors.contains { $0.hasPrefix("GET /v1/users/u/nights: PostgreSQL ") }, "\(errors)")
    }

    func test_serve_listensUntilSIGTERM() async throws {
        let process = Process()
        process.executableURL = try builtCommandLineTool()
        process.arguments = [
            "serve", "--migrate", "--port", "0", "--database", testDatabase.address.connectionString,
            "--chunks", directory.url.appendingPathComponent("chunks").path, "--trusted-keys", keys.trusted,
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableDataWithin(seconds: 60), as: UTF8.self)
        let port = try XCTUnwrap(
            UInt16(line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":").last ?? ""), line)
        XCTAssertTrue(line.hasPrefix("listening on http://127.0.0.1:"), line)
        let curl = Curl(port: port)
        XCTAssertEqual(try curl.request("GET", "/healthz").status, 200)
        _ = try newSession(curl, key: keys.a)
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(
            process.terminationStatus, 0,
            String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        XCTAssertEqual(try curl.request("GET", "/healthz", timeout: 5).exitStatus, 7, "the port is closed")
    }
}

extension FileHandle {
    /// The first data that arrives within `seconds` (empty when none does).
    func availableDataWithin(seconds: TimeInterval) -> Data {
        let received = LockedData()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            received.set(self.availableData)
            done.signal()
        }
        _ = done.wait(timeout: .now() + seconds)
        return received.get()
    }
}

/// Data shared between two threads.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}

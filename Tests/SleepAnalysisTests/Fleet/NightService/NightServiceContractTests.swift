import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// The night service against its OpenAPI document (`Schemas/night-service.openapi.json`): the router serves
/// exactly the document's operations, and real responses, from a night finished and analysed by a worker, match
/// the document's schemas (`Tools/json/validate_openapi.py`, python3-jsonschema).
final class NightServiceContractTests: NightQueueTestCase {
    /// The validator's complaints about one response (empty when it matches the document).
    private func complaints(_ method: String, _ template: String, _ reply: Curl.Reply) throws -> [String] {
        let file = directory.url.appendingPathComponent("reply-\(UUID().uuidString).json")
        try reply.body.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            FixturePaths.repositoryRoot.appendingPathComponent("Tools/json/validate_openapi.py").path, "night-service",
            method, template, String(reply.status), file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if output.contains("ModuleNotFoundError") {
            throw XCTSkip("python3-jsonschema is missing (Tools/install-dependencies.sh installs it)")
        }
        return process.terminationStatus == 0 ? [] : [output.isEmpty ? "exit \(process.terminationStatus)" : output]
    }

    func test_theRouterServesExactlyTheDocumentsOperations() throws {
        let text = try String(
            contentsOf: FixturePaths.repositoryRoot.appendingPathComponent("Schemas/night-service.openapi.json"),
            encoding: .utf8)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let paths = try XCTUnwrap(document["paths"] as? [String: [String: Any]])
        let normalise = { (path: String) in
            path.replacingOccurrences(of: #"\{[^}]*\}"#, with: "{}", options: .regularExpression)
        }
        let documented = Set(paths.flatMap { path, item in item.keys.map { "\($0.uppercased()) \(normalise(path))" } })
        let core = try NightServiceCore(
            configuration: NightServiceConfiguration(chunkDirectory: directory.url.appendingPathComponent("chunks")),
            address: testDatabase.address)
        let served = Set(core.router().routes.map { "\($0.method.rawValue) \(normalise($0.pattern))" })
        XCTAssertEqual(served, documented)
    }

    func test_realResponsesMatchTheDocument() async throws {
        try await NightService.migrate(address: testDatabase.address)
        let keys = try ServiceNights.tenantKeys()
        let service = try NightService(
            configuration: NightServiceConfiguration(
                chunkDirectory: directory.url.appendingPathComponent("chunks"), trustedIssuerKeys: [keys.trusted],
                maximumChunkBytes: 8 << 20),
            address: testDatabase.address)
        defer { service.stop() }
        let curl = Curl(port: service.port)
        let auth = ["Authorization: Bearer \(keys.a)"]
        let night = try ServiceNights.write(seconds: 240, chunkSeconds: 120, into: directory.url)
        var checked: [(String, String, Curl.Reply)] = []
        func check(
            _ method: String, _ template: String, _ path: String, headers: [String]? = nil, body: Data? = nil,
            file: URL? = nil, expect status: Int
        ) throws -> Curl.Reply {
            let reply = try curl.request(method, path, headers: headers ?? auth, bodyFile: file, body: body)
            XCTAssertEqual(reply.status, status, "\(method) \(path): \(reply.text)")
            checked.append((method, template, reply))
            return reply
        }

        _ = try check("GET", "/healthz", "/healthz", expect: 200)
        let created = try check(
            "POST", "/v1/sessions", "/v1/sessions",
            body: Data(#"{"userId": "ana", "startTime": "2026-12-01T23:00:00Z"}"#.utf8),
            expect: 201)
        _ = try check("POST", "/v1/sessions", "/v1/sessions", body: Data("{}".utf8), expect: 400)
        _ = try check("POST", "/v1/sessions", "/v1/sessions", headers: [], body: Data("{}".utf8), expect: 401)
        let id = try XCTUnwrap(try ServiceNights.object(created.body)["sessionId"] as? String)
        let session = "/v1/sessions/{sessionId}"
        let audio = session + "/audio/{sequence}"
        _ = try check("PUT", audio, "/v1/sessions/\(id)/audio/1", file: night.chunks[1], expect: 201)
        _ = try check("PUT", audio, "/v1/sessions/\(id)/audio/1", file: night.chunks[1], expect: 200)
        _ = try check("PUT", audio, "/v1/sessions/\(id)/audio/1", file: night.chunks[0], expect: 409)
        _ = try check("PUT", audio, "/v1/sessions/\(id)/audio/x", file: night.chunks[0], expect: 400)
        _ = try check("PUT", audio, "/v1/sessions/\(id)/audio/2", body: Data(count: (8 << 20) + 1), expect: 413)
        _ = try check("PUT", audio, "/v1/sessions/\(UUID())/audio/0", file: night.chunks[0], expect: 404)
        _ = try check("PUT", audio, "/v1/sessions/\(id)/audio/0", body: Data("text".utf8), expect: 415)
        _ = try check("PUT", audio, "/v1/sessions/\(id)/audio/0", body: Data("OggS and no more".utf8), expect: 422)
        _ = try check(
            "PUT", session + "/heart-rate/{sequence}", "/v1/sessions/\(id)/heart-rate/0",
            body: Data("timestamp,bpm\n0,60\n".utf8), expect: 201)
        _ = try check(
            "PUT", session + "/accelerometer/{sequence}", "/v1/sessions/\(id)/accelerometer/0", body: Data(),
            expect: 400)
        _ = try check("GET", session, "/v1/sessions/\(id)", expect: 200)
        _ = try check("GET", session, "/v1/sessions/\(id)", headers: ["Authorization: Bearer \(keys.b)"], expect: 404)
        _ = try check("POST", session + "/finish", "/v1/sessions/\(id)/finish", expect: 409)
        _ = try check("PUT", audio, "/v1/sessions/\(id)/audio/0", file: night.chunks[0], expect: 201)
        _ = try check("GET", session + "/result", "/v1/sessions/\(id)/result", expect: 409)
        _ = try check("POST", session + "/finish", "/v1/sessions/\(id)/finish", expect: 202)
        _ = try check("POST", session + "/finish", "/v1/sessions/\(id)/finish", expect: 202)

        let worker = NightWorker(
            queue: queue,
            configuration: try QueueNights.configuration(name: "w", storage: directory.url, exitsWhenIdle: true))
        try await worker.run()
        let done = try check("GET", session, "/v1/sessions/\(id)", expect: 200)
        XCTAssertEqual(try ServiceNights.object(done.body)["state"] as? String, "done", done.text)
        _ = try check("GET", session + "/result", "/v1/sessions/\(id)/result", expect: 200)
        _ = try check("GET", "/v1/users/{userId}/nights", "/v1/users/ana/nights?to=2027-01-01T00:00:00Z", expect: 200)
        _ = try check("GET", "/v1/users/{userId}/nights", "/v1/users/ana/nights?from=soon", expect: 400)
        let report = try curl.request("GET", "/v1/sessions/\(id)/report", headers: auth)
        XCTAssertEqual(report.status, 200)
        XCTAssertEqual(report.headers["content-type"], "text/html; charset=utf-8")
        let deleted = try curl.request("DELETE", "/v1/users/ana", headers: auth)
        XCTAssertEqual(deleted.status, 204)
        XCTAssertTrue(deleted.body.isEmpty)
        _ = try check("DELETE", "/v1/users/{userId}", "/v1/users/ana", expect: 404)

        for (method, template, reply) in checked {
            XCTAssertEqual(try complaints(method, template, reply), [], "\(method) \(template) \(reply.status)")
        }
    }
}

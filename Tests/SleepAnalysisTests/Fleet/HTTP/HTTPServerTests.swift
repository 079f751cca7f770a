import Foundation
import SleepAnalysisFleet
import Synchronization
import TestSupport
import XCTest

/// The fleet's HTTP server (libmicrohttpd) on 127.0.0.1, exercised with the real `curl`.
final class HTTPServerTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory(prefix: "http-server") }
    override func tearDown() { directory.remove() }

    /// What became of the sinks' uploads, in order.
    final class Outcomes: Sendable {
        let list = Mutex<[String]>([])
        func append(_ outcome: String) { list.withLock { $0.append(outcome) } }
        var all: [String] { list.withLock { $0 } }
    }

    /// A sink that writes the body to a file and records how it ended.
    final class FileSink: HTTPRequestBodySink {
        let url: URL
        let handle: FileHandle
        let outcomes: Outcomes

        init(url: URL, outcomes: Outcomes) throws {
            self.url = url
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            handle = try FileHandle(forWritingTo: url)
            self.outcomes = outcomes
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws {
            if bytes.first == UInt8(ascii: "!") { throw HTTPResponseError(.text(422, "no bangs")) }
            try handle.write(contentsOf: Data(bytes))
        }

        func finish() throws -> HTTPResponse {
            try handle.close()
            outcomes.append("finished")
            return .text(201, "stored \((try? Data(contentsOf: url).count) ?? -1)")
        }

        func cancel() {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
            outcomes.append("cancelled")
        }
    }

    private struct Boom: Error {}

    private func makeServer(
        _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(), outcomes: Outcomes = Outcomes()
    ) throws -> HTTPServer {
        let uploads = directory.url
        let router = HTTPRouter(
            [
                .respond(.get, "/hello/{name}") { request in
                    .text(200, "hello \(request.pathParameters["name"] ?? "?") \(request.query["x"] ?? "-")")
                },
                .respond(.post, "/echo", maximumBodyBytes: 100) { request in
                    HTTPResponse(
                        status: 200, headers: ["Content-Type": "application/octet-stream", "X-Echo": "yes"],
                        body: request.body)
                },
                .respond(.get, "/missing") { _ in throw HTTPResponseError(.text(409, "conflict")) },
                .respond(.get, "/boom") { _ in throw Boom() },
                .respond(.get, "/slow") { _ in
                    Thread.sleep(forTimeInterval: 1)
                    return .text(200, "slow")
                },
                .stream(.put, "/files/{name}", maximumBodyBytes: 1000) { request in
                    guard request.header("authorization") == "Bearer ok" else { return .respond(.text(401, "no")) }
                    let name = request.pathParameters["name"] ?? "x"
                    return .receive(try FileSink(url: uploads.appendingPathComponent(name), outcomes: outcomes))
                },
            ],
            errorResponse: { error, request in .text(500, "failed \(request.path): \(type(of: error))") })
        return try HTTPServer(configuration: configuration, router: router)
    }

    func testRoutesByMethodAndPathOnAnyFreePort() throws {
        let server = try makeServer()
        defer { server.stop() }
        XCTAssertGreaterThan(server.port, 0)
        let curl = Curl(port: server.port)

        let hello = try curl.request("GET", "/hello/a%20b%2Fc?x=1+2&y")
        XCTAssertEqual(hello.status, 200)
        XCTAssertEqual(hello.text, "hello a b/c 1 2\n")
        XCTAssertEqual(hello.headers["content-type"], "text/plain; charset=utf-8")

        let echo = try curl.request("POST", "/echo", body: Data("ping".utf8))
        XCTAssertEqual(echo.status, 200)
        XCTAssertEqual(echo.text, "ping")
        XCTAssertEqual(echo.headers["x-echo"], "yes")
        XCTAssertEqual(echo.headers["content-length"], "4")

        let wrongMethod = try curl.request("DELETE", "/hello/x")
        XCTAssertEqual(wrongMethod.status, 405)
        XCTAssertEqual(wrongMethod.headers["allow"], "GET")
        XCTAssertEqual(try curl.request("GET", "/nowhere").status, 404)
        XCTAssertEqual(try curl.request("GET", "/hello").status, 404)
        XCTAssertEqual(try curl.request("GET", "/hello/x/y").status, 404)
        XCTAssertEqual(try curl.request("BREW", "/hello/x").status, 501)
        XCTAssertEqual(try curl.request("GET", "/hello/%zz").status, 400)

        // curl -I writes the header fields where the body would go: there is no body after them.
        let head = try curl.request("HEAD", "/hello/x", extra: ["-I"])
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], "10")
        XCTAssertFalse(head.text.contains("hello"), head.text)

        XCTAssertEqual(try curl.request("GET", "/missing").status, 409)
        let failed = try curl.request("GET", "/boom")
        XCTAssertEqual(failed.status, 500)
        XCTAssertEqual(failed.text, "failed /boom: Boom\n")
    }

    func testAnswersSeveralRequestsOnOneKeptAliveConnection() throws {
        let server = try makeServer()
        defer { server.stop() }
        let curl = Curl(port: server.port)
        let reply = try curl.request("GET", "/hello/one", extra: ["-v", curl.base + "/hello/two"])
        XCTAssertEqual(reply.exitStatus, 0, reply.errorOutput)
        XCTAssertEqual(reply.text, "hello two -\n")
        XCTAssertTrue(reply.errorOutput.contains("Re-using existing connection"), reply.errorOutput)
    }

    func testStreamsBodiesToTheSinkAndRefusesOversizeOnes() throws {
        let outcomes = Outcomes()
        let server = try makeServer(outcomes: outcomes)
        defer { server.stop() }
        let curl = Curl(port: server.port)
        let body = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 % 200 + 40) })

        let stored = try curl.request("PUT", "/files/a", headers: ["Authorization: Bearer ok"], body: body)
        XCTAssertEqual(stored.status, 201, stored.text)
        XCTAssertEqual(stored.text, "stored 1000\n")
        XCTAssertEqual(try Data(contentsOf: directory.url.appendingPathComponent("a")), body)

        let unauthorised = try curl.request("PUT", "/files/b", body: body)
        XCTAssertEqual(unauthorised.status, 401)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("b").path))

        // A Content-Length over the limit is refused before the body is read.
        let tooLong = try curl.request(
            "PUT", "/files/c", headers: ["Authorization: Bearer ok"], body: body + [UInt8(1)])
        XCTAssertEqual(tooLong.status, 413)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("c").path))

        // A chunked body that grows past the limit is cancelled in the sink and answered 413.
        let chunked = try curl.request(
            "PUT", "/files/d", headers: ["Authorization: Bearer ok", "Transfer-Encoding: chunked"],
            body: Data(repeating: 65, count: 5000))
        XCTAssertEqual(chunked.status, 413, chunked.errorOutput)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("d").path))

        // A sink that refuses the body: its response, and the partial file is gone.
        let refused = try curl.request("PUT", "/files/e", headers: ["Authorization: Bearer ok"], body: Data("!x".utf8))
        XCTAssertEqual(refused.status, 422)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("e").path))

        let collectedTooLarge = try curl.request("POST", "/echo", body: Data(repeating: 1, count: 101))
        XCTAssertEqual(collectedTooLarge.status, 413)
        XCTAssertEqual(outcomes.all, ["finished", "cancelled", "cancelled"])
    }

    func testASlowClientDoesNotHoldUpOthersAndASilentOneIsClosed() throws {
        let server = try makeServer(HTTPServerConfiguration(connectionTimeout: 2))
        defer { server.stop() }
        let curl = Curl(port: server.port)

        // One client sends its request line and header fields a byte at a time, 0.1 s apart.
        let slow = try RawTCPClient(port: server.port)
        let request = "GET /hello/slowpoke HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        let slowReply = Mutex<Data?>(nil)
        let slowThread = Thread {
            for character in request {
                guard slow.send(String(character)) else { break }
                Thread.sleep(forTimeInterval: 0.1)
            }
            slowReply.withLock { $0 = slow.readToEnd() }
        }
        slowThread.start()
        Thread.sleep(forTimeInterval: 0.5)

        // Meanwhile others are answered at once, and two slow handlers run side by side.
        let started = Date()
        for index in 0..<5 {
            XCTAssertEqual(try curl.request("GET", "/hello/\(index)").status, 200)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        XCTAssertNil(slowReply.withLock { $0 }, "the slow client is still sending")

        let parallel = Date()
        let group = DispatchGroup()
        let statuses = Mutex<[Int]>([])
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) {
                let status = (try? curl.request("GET", "/slow").status) ?? 0
                statuses.withLock { $0.append(status) }
            }
        }
        group.wait()
        XCTAssertEqual(statuses.withLock { $0 }, [200, 200])
        XCTAssertLessThan(Date().timeIntervalSince(parallel), 1.9)

        // A client that sends nothing is closed after the time-out.
        let silent = try RawTCPClient(port: server.port)
        let silentStart = Date()
        XCTAssertTrue(silent.readToEnd().isEmpty)
        XCTAssertLessThan(Date().timeIntervalSince(silentStart), 6)

        let deadline = Date().addingTimeInterval(30)
        while slowReply.withLock({ $0 }) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        let reply = String(decoding: slowReply.withLock { $0 } ?? Data(), as: UTF8.self)
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 200"), reply)
        XCTAssertTrue(reply.hasSuffix("hello slowpoke -\n"), reply)
    }

    func testStopsCleanlyAndFreesThePort() throws {
        let server = try makeServer(HTTPServerConfiguration(shutdownGracePeriod: 3))
        let port = server.port
        let curl = Curl(port: port)
        XCTAssertEqual(try curl.request("GET", "/hello/x").status, 200)

        // A request in progress when the stop begins is still answered.
        let inProgress = Mutex<Int>(0)
        let slowThread = Thread { inProgress.withLock { $0 = (try? curl.request("GET", "/slow").status) ?? -1 } }
        slowThread.start()
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(server.requestsInProgress, 1)
        server.stop()
        XCTAssertEqual(inProgress.withLock { $0 }, 200)
        XCTAssertEqual(server.requestsInProgress, 0)
        server.stop()

        let refused = try curl.request("GET", "/hello/x", timeout: 5)
        XCTAssertEqual(refused.exitStatus, 7, refused.errorOutput)

        let again = try makeServer(HTTPServerConfiguration(port: port))
        defer { again.stop() }
        XCTAssertEqual(again.port, port)
        XCTAssertEqual(try curl.request("GET", "/hello/again").status, 200)
    }

    func testRefusesAnAddressItCannotListenOn() throws {
        let server = try makeServer()
        defer { server.stop() }
        XCTAssertThrowsError(try makeServer(HTTPServerConfiguration(port: server.port))) { error in
            guard case HTTPServerError.cannotListen = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try makeServer(HTTPServerConfiguration(host: "no such host.invalid"))) { error in
            XCTAssertEqual(error as? HTTPServerError, .invalidAddress("no such host.invalid"))
        }
        XCTAssertThrowsError(try makeServer(HTTPServerConfiguration(connectionTimeout: 0)))
    }

    func testRouterMatchesPatternsAndParsesTargets() throws {
        let router = HTTPRouter([
            .respond(.get, "/v1/sessions/{id}") { _ in .text(200, "") },
            .respond(.post, "/v1/sessions") { _ in .text(200, "") },
        ])
        guard case .found(let route, let parameters) = router.match(.get, pathSegments: ["v1", "sessions", "7"]) else {
            return XCTFail("no route")
        }
        XCTAssertEqual(route.pattern, "/v1/sessions/{id}")
        XCTAssertEqual(parameters, ["id": "7"])
        guard case .methodNotAllowed(let allowed) = router.match(.put, pathSegments: ["v1", "sessions"]) else {
            return XCTFail("not 405")
        }
        XCTAssertEqual(allowed, [.post])
        guard case .notFound = router.match(.get, pathSegments: ["v1", "sessions", ""]) else {
            return XCTFail("an empty parameter matched")
        }
        XCTAssertEqual(HTTPRequestTarget("/")?.pathSegments, [])
        XCTAssertEqual(HTTPRequestTarget("/a//b/")?.pathSegments, ["a", "", "b", ""])
        XCTAssertEqual(
            HTTPRequestTarget("/u/x?from=2026-01-01T00%3A00Z&to")?.query, ["from": "2026-01-01T00:00Z", "to": ""])
        XCTAssertNil(HTTPRequestTarget("http://example.org/"))
        XCTAssertNil(HTTPRequestTarget("/a?b=%G1"))
    }
}

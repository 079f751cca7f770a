import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// `RemoteInputFetcher` against a real HTTP/1.1 server on 127.0.0.1: whole downloads, resuming a dropped one
/// with a `Range` request, a changed file fetched again from zero, transient and permanent failures.
final class RemoteInputFetcherTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let body = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "remote-input")
    }

    override func tearDown() {
        directory?.remove()
    }

    private var fetcher: RemoteInputFetcher {
        RemoteInputFetcher(attempts: 3, initialBackoff: 0.05, maximumBackoff: 0.1, idleTimeout: 5)
    }

    func test_fetch_downloadsTheWholeFile_underItsName() async throws {
        let server = try LoopbackHTTPServer(files: ["/nights/n1.wav": body])
        let file = try await fetcher.fetch(server.baseURL.appendingPathComponent("nights/n1.wav"), into: directory.url)
        XCTAssertEqual(file.lastPathComponent, "n1.wav")
        XCTAssertEqual(try Data(contentsOf: file), body)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.url.path), ["n1.wav"])
    }

    func test_aDroppedDownload_resumesWithARangeRequest_withoutFetchingBytesTwice() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": body])
        server.inject(.dropAfter(bytes: 120_000), forPath: "/n.wav")
        let file = try await fetcher.fetch(server.baseURL.appendingPathComponent("n.wav"), into: directory.url)

        XCTAssertEqual(try Data(contentsOf: file), body)
        let requests = server.requests
        XCTAssertEqual(requests.count, 2)
        XCTAssertNil(requests[0].range)
        XCTAssertEqual(requests[1].range, "bytes=120000-")
        XCTAssertEqual(requests[1].headers["if-range"], server.entityTag("/n.wav"), "guarded by the ETag")
        XCTAssertEqual(server.bodyBytesSent, body.count, "no byte was sent twice")
    }

    func test_aStalledDownload_timesOut_andIsResumed() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": body])
        server.inject(.stallAfter(bytes: 50_000, seconds: 1.6), forPath: "/n.wav")
        let impatient = RemoteInputFetcher(attempts: 5, initialBackoff: 0.05, idleTimeout: 1)
        let file = try await impatient.fetch(server.baseURL.appendingPathComponent("n.wav"), into: directory.url)

        XCTAssertEqual(try Data(contentsOf: file), body)
        XCTAssertEqual(server.requests.map(\.range), [nil, "bytes=50000-"])
        XCTAssertEqual(server.bodyBytesSent, body.count)
    }

    func test_aServerThatIsNotListening_isATransientError() async throws {
        let server = try LoopbackHTTPServer(files: [:])
        let url = server.baseURL.appendingPathComponent("n.wav")
        server.stop()
        do {
            _ = try await fetcher.fetch(url, into: directory.url)
            XCTFail("a file came from a stopped server")
        } catch let error as RemoteInputError {
            XCTAssertEqual(error, .unavailable("cannot connect", url: url.absoluteString))
        }
    }

    func test_aFileChangedOnTheServer_isFetchedAgainFromZero() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": body])
        server.inject(.dropAfter(bytes: 100_000), forPath: "/n.wav")
        let url = server.baseURL.appendingPathComponent("n.wav")
        let once = RemoteInputFetcher(attempts: 1, initialBackoff: 0, idleTimeout: 5)
        do {
            _ = try await once.fetch(url, into: directory.url)
            XCTFail("the dropped download succeeded")
        } catch let error as RemoteInputError {
            XCTAssertFalse(error.isPermanent, "\(error)")
        }
        let changed = Data(body.reversed())
        server.setFile("/n.wav", changed)

        let file = try await fetcher.fetch(url, into: directory.url)
        XCTAssertEqual(try Data(contentsOf: file), changed, "the old bytes were not kept")
        XCTAssertEqual(server.requests.last?.range, "bytes=100000-", "the resume was asked for")
        XCTAssertEqual(server.bodyBytesSent, 100_000 + changed.count, "the server sent the new file whole")
    }

    func test_transientStatuses_areRetried() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": body])
        server.inject(.status(503), forPath: "/n.wav", times: 2)
        let file = try await fetcher.fetch(server.baseURL.appendingPathComponent("n.wav"), into: directory.url)
        XCTAssertEqual(try Data(contentsOf: file), body)
        XCTAssertEqual(server.requests.count, 3)
    }

    func test_aFailingServer_isGivenUpAfterTheAttempts_asATransientError() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": body])
        server.inject(.status(500), forPath: "/n.wav", times: 10)
        do {
            _ = try await fetcher.fetch(server.baseURL.appendingPathComponent("n.wav"), into: directory.url)
            XCTFail("a failing server gave a file")
        } catch let error as RemoteInputError {
            guard case .unavailable = error else { return XCTFail("\(error)") }
            XCTAssertFalse(error.isPermanent)
        }
        XCTAssertEqual(server.requests.count, 3, "bounded by the attempts")
    }

    func test_missingFiles_andRefusals_arePermanent_andNotRetried() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": body])
        server.inject(.status(403), forPath: "/n.wav")
        for path in ["missing.wav", "n.wav"] {
            do {
                _ = try await fetcher.fetch(server.baseURL.appendingPathComponent(path), into: directory.url)
                XCTFail("\(path) was fetched")
            } catch let error as RemoteInputError {
                guard case .refused(let status, _) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(status, path == "n.wav" ? 403 : 404)
                XCTAssertTrue(error.isPermanent)
            }
        }
        XCTAssertEqual(server.requests.count, 2, "each asked once")
    }

    func test_aFileOverTheLimit_isRefusedBeforeItIsStored() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": body])
        let small = RemoteInputFetcher(maximumBytes: 1000, attempts: 3, initialBackoff: 0, idleTimeout: 5)
        do {
            _ = try await small.fetch(server.baseURL.appendingPathComponent("n.wav"), into: directory.url)
            XCTFail("a file over the limit was fetched")
        } catch let error as RemoteInputError {
            XCTAssertEqual(error, .tooLarge(bytes: Int64(body.count), limit: 1000, url: "\(server.baseURL)/n.wav"))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.url.path), [])
    }

    func test_messagesNeverShowPasswordsOrQueryTokens() async throws {
        let server = try LoopbackHTTPServer(files: [:])
        let url = try XCTUnwrap(
            URL(string: "http://alice:s3cret@127.0.0.1:\(server.port)/n.wav?token=t0ken&plain"))
        do {
            _ = try await fetcher.fetch(url, into: directory.url)
            XCTFail("a missing file was fetched")
        } catch let error as RemoteInputError {
            XCTAssertEqual(
                error.description,
                "Remote input: http://alice:***@127.0.0.1:\(server.port)/n.wav?token=***&plain answered HTTP 404")
        }
        XCTAssertEqual(RemoteInputURL.redacted("not a url://x y"), "not a url://***")
    }

    func test_parse_acceptsHTTPURLs_andRejectsOtherSchemesAndMalformedOnes() throws {
        XCTAssertEqual(try RemoteInputURL.parse("https://store.example/n.flac").host, "store.example")
        XCTAssertThrowsError(try RemoteInputURL.parse("ftp://store.example/n.flac")) { error in
            XCTAssertEqual(
                error as? RemoteInputError, .unsupportedScheme("ftp", url: "ftp://store.example/n.flac"))
        }
        for text in ["http://", "http:///n.flac", "https://exa mple.com/n.flac"] {
            XCTAssertThrowsError(try RemoteInputURL.parse(text), text) { error in
                guard case .malformedURL = error as? RemoteInputError else { return XCTFail("\(text): \(error)") }
            }
        }
    }
}

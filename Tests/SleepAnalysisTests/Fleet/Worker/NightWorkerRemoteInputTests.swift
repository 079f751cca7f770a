import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Nights submitted as `http://` URLs, served by a real HTTP server on 127.0.0.1: the worker downloads them (and
/// removes the download afterwards), the result equals the same night's from a path, and a missing file fails
/// its job alone with the typed error.
final class NightWorkerRemoteInputTests: NightQueueTestCase {

    func test_aNightFromAURL_equalsTheNightFromItsPath_andAMissingURLFailsAlone() async throws {
        let audio = try AnalyzerNights.write(index: 1, into: directory.url)
        let start = AnalyzerNights.startTime(of: 1)
        let server = try LoopbackHTTPServer(files: ["/store/night-1.wav": try Data(contentsOf: audio)])
        // The first download is cut short: the worker resumes it.
        server.inject(.dropAfter(bytes: 1_000_000), forPath: "/store/night-1.wav")
        let fromPath = try await queue.submit(NightSubmission(audio: audio, startTime: start, subjectId: "path"))
        let fromURL = try await queue.submit(
            NightSubmission(
                audio: server.baseURL.appendingPathComponent("store/night-1.wav"), startTime: start,
                subjectId: "url"))
        let missing = try await queue.submit(
            NightSubmission(
                audio: try XCTUnwrap(URL(string: "http://user:pa55@127.0.0.1:\(server.port)/store/gone.wav?sig=x")),
                startTime: start, subjectId: "missing"))
        let stored = try await queue.job(id: fromURL)
        XCTAssertEqual(stored?.submission.audio, server.baseURL.appendingPathComponent("store/night-1.wav"))

        var configuration = try QueueNights.configuration(name: "w", storage: directory.url, exitsWhenIdle: true)
        configuration.concurrency = 2
        try await NightWorker(queue: queue, configuration: configuration).run()

        let pathResult = try await queue.result(jobId: fromPath)
        let urlResult = try await queue.result(jobId: fromURL)
        XCTAssertEqual(
            try AnalyzerNights.comparable(try XCTUnwrap(urlResult)),
            try AnalyzerNights.comparable(try XCTUnwrap(pathResult)))
        let resumes = server.requests.filter { $0.path == "/store/night-1.wav" }.map(\.range)
        XCTAssertEqual(resumes, [nil, "bytes=1000000-"], "the cut download was resumed")
        XCTAssertEqual(
            server.bodyBytesSent, try Data(contentsOf: audio).count, "no byte of the night was fetched twice")

        let failed = try await queue.job(id: missing)
        XCTAssertEqual(failed?.state, .failed)
        XCTAssertEqual(failed?.attempts, 1, "a missing file is not retried")
        XCTAssertEqual(
            failed?.lastError,
            RemoteInputError.refused(
                status: 404, url: "http://user:***@127.0.0.1:\(server.port)/store/gone.wav?sig=***"
            ).description)
        let downloads = (try? FileManager.default.contentsOfDirectory(atPath: configuration.downloadDirectory.path))
        XCTAssertEqual(downloads ?? [], [], "the downloads were removed")
    }

    func test_aServerThatKeepsFailing_queuesTheJobAgainForLater() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": Data(count: 1000)])
        server.inject(.status(503), forPath: "/n.wav", times: 10)
        let id = try await queue.submit(
            NightSubmission(
                audio: server.baseURL.appendingPathComponent("n.wav"), startTime: Date(), subjectId: "s"))
        var configuration = try QueueNights.configuration(name: "w", storage: directory.url, exitsWhenIdle: true)
        configuration.fetcher = RemoteInputFetcher(attempts: 2, initialBackoff: 0.05, idleTimeout: 5)
        try await NightWorker(queue: queue, configuration: configuration).run()

        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .queued, "a transient failure is retried after the queue's back-off")
        XCTAssertEqual(job?.attempts, 1)
        XCTAssertEqual(
            job?.lastError,
            RemoteInputError.unavailable("HTTP 503", url: "\(server.baseURL)/n.wav").description)
        XCTAssertEqual(server.requests.count, 2, "the fetcher's own retries are bounded")
    }

    func test_stoppingAWorkerMidDownload_givesTheNightBack_andRemovesThePartialFile() async throws {
        let server = try LoopbackHTTPServer(files: ["/n.wav": Data(count: 200_000)])
        server.inject(.stallAfter(bytes: 50_000, seconds: 2), forPath: "/n.wav")
        let id = try await queue.submit(
            NightSubmission(
                audio: server.baseURL.appendingPathComponent("n.wav"), startTime: Date(), subjectId: "s"))
        var configuration = try QueueNights.configuration(name: "w", storage: directory.url)
        configuration.fetcher = RemoteInputFetcher(idleTimeout: 30)
        let worker = NightWorker(queue: queue, configuration: configuration)
        let running = Task { try await worker.run() }
        let downloads = configuration.downloadDirectory.path
        let downloading = try await QueueNights.waitUntil(timeout: 10) {
            let runs = (try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []
            return runs.contains { run in
                let files = (try? FileManager.default.contentsOfDirectory(atPath: "\(downloads)/\(run)")) ?? []
                return files.contains { $0.hasSuffix(".partial") }
            }
        }
        XCTAssertTrue(downloading, "the worker is downloading the night")
        let stopping = Date()
        await worker.stop(releasingJobs: true)
        try await running.value

        XCTAssertLessThan(Date().timeIntervalSince(stopping), 1.5, "the download was cancelled, not waited for")
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.state, .queued)
        XCTAssertEqual(job?.attempts, 0, "a released job does not use up an attempt")
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? [], [])
        XCTAssertEqual(server.requests.count, 1, "nothing was fetched after the stop")
        XCTAssertEqual(server.bodyBytesSent, 50_000)
    }

    func test_submittingAnFTPURL_isRefusedBeforeItIsQueued() async throws {
        let night = NightSubmission(
            audio: try XCTUnwrap(URL(string: "ftp://store.example/n.wav")), startTime: Date(), subjectId: "s")
        do {
            _ = try await queue.submit(night)
            XCTFail("an ftp URL was queued")
        } catch let error as RemoteInputError {
            XCTAssertEqual(error, .unsupportedScheme("ftp", url: "ftp://store.example/n.wav"))
        }
        let status = try await queue.status()
        XCTAssertEqual(status.count(.queued), 0)
    }

    func test_queueSubmit_storesAURL_andRefusesOtherSchemesAndMalformedURLs_asUsageErrors() async throws {
        let url = testDatabase.address.connectionString
        let common = ["--start", "2026-11-30T22:00:00Z", "--subject", "s", "--database", url]
        let submitted = try runCommandLineTool(
            ["queue", "submit", "https://store.example/n.flac", "--heart-rate", "https://store.example/hr.csv"]
                + common)
        XCTAssertEqual(submitted.status, 0, submitted.standardError)
        let id = try XCTUnwrap(Int64(submitted.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let job = try await queue.job(id: id)
        XCTAssertEqual(job?.submission.audio.absoluteString, "https://store.example/n.flac")
        XCTAssertEqual(job?.submission.heartRate?.absoluteString, "https://store.example/hr.csv")

        for input in ["ftp://store.example/n.flac", "https://exa mple.com/n.flac", "http:///n.flac"] {
            let refused = try runCommandLineTool(["queue", "submit", input] + common)
            XCTAssertEqual(refused.status, 64, "\(input): \(refused.standardError)")
            XCTAssertTrue(refused.standardError.contains("Remote input:"), refused.standardError)
        }
        let status = try await queue.status()
        XCTAssertEqual(status.count(.queued), 1, "only the good night was queued")
    }
}

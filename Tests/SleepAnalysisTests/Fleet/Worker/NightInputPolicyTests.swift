import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Inputs confined: local paths only under the input roots (`..` and symbolic links resolved), URLs only with
/// allowed schemes and hosts — refused at submission (exit 65 / 64 from `queue submit`) and again when a worker
/// claims a job someone queued without the policy (the job fails; nothing outside is read).
final class NightInputPolicyTests: NightQueueTestCase {
    private var root: URL { directory.url.appendingPathComponent("nights", isDirectory: true) }

    private func inside(_ name: String) throws -> URL {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let url = root.appendingPathComponent(name)
        try Data("audio".utf8).write(to: url)
        return url
    }

    private func night(_ audio: URL) -> NightSubmission {
        NightSubmission(audio: audio, startTime: AnalyzerNights.startTime(of: 0), subjectId: "ana")
    }

    private func refusedLocally(
        _ policy: NightInputPolicy, _ url: URL, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try policy.check(night(url)), file: file, line: line) { error in
            guard case .invalidInput(let reason)? = error as? SleepCycleSdkError else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertTrue(
                reason.message.contains("outside the input roots") || reason.message.contains("not an absolute path"),
                reason.message, file: file, line: line)
        }
    }

    func test_localPaths_mustLieUnderARoot_afterResolvingDotsAndLinks() throws {
        let policy = NightInputPolicy(localRoots: [root])
        XCTAssertNoThrow(try policy.check(night(try inside("ana.wav"))))
        refusedLocally(policy, URL(fileURLWithPath: "/etc/shadow"))
        refusedLocally(policy, URL(fileURLWithPath: root.path + "/../../../etc/passwd"))
        refusedLocally(policy, URL(fileURLWithPath: root.path + "-sibling/ana.wav"))
        let link = root.appendingPathComponent("escape.wav")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/etc/hostname")
        refusedLocally(policy, link)
        refusedLocally(NightInputPolicy(localRoots: []), try inside("none-allowed.wav"))
        XCTAssertNoThrow(try NightInputPolicy.unconfined.check(night(URL(fileURLWithPath: "/etc/shadow"))))
    }

    func test_urls_onlyWithAllowedSchemesAndHosts() throws {
        let policy = NightInputPolicy(
            localRoots: [], remoteSchemes: ["https"], remoteHosts: ["store.example", ".cdn.example"])
        XCTAssertNoThrow(try policy.check(night(try XCTUnwrap(URL(string: "https://store.example/n.flac")))))
        XCTAssertNoThrow(try policy.check(night(try XCTUnwrap(URL(string: "https://eu.cdn.example/n.flac")))))
        XCTAssertThrowsError(try policy.check(night(try XCTUnwrap(URL(string: "https://evil.example/n.flac"))))) {
            XCTAssertEqual(($0 as? RemoteInputError)?.isPermanent, true)
            guard case .hostNotAllowed("evil.example", _)? = $0 as? RemoteInputError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try policy.check(night(try XCTUnwrap(URL(string: "http://store.example/n.flac"))))) {
            guard case .unsupportedScheme("http", _)? = $0 as? RemoteInputError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(
            try policy.check(night(try XCTUnwrap(URL(string: "https://store.example.evil.example/n.flac")))))
    }

    func test_queueSubmit_refusesAPathOutsideTheRoots_with65_andAHostNotAllowed_with64() async throws {
        let url = testDatabase.address.connectionString
        let common = [
            "--start", "2026-12-01T23:00:00Z", "--subject", "ana", "--input-root", root.path, "--database", url,
        ]
        let outside = try runCommandLineTool(["queue", "submit", "/etc/shadow"] + common)
        XCTAssertEqual(outside.status, 65, outside.standardError)
        XCTAssertTrue(outside.standardError.contains("outside the input roots"), outside.standardError)
        let host = try runCommandLineTool(
            ["queue", "submit", "https://evil.example/n.flac", "--input-host", "store.example"] + common)
        XCTAssertEqual(host.status, 64, host.standardError)
        let count = try await queue.jobs().count
        XCTAssertEqual(count, 0, "nothing was queued")
        let allowed = try runCommandLineTool(["queue", "submit", try inside("ana.wav").path] + common)
        XCTAssertEqual(allowed.status, 0, allowed.standardError)
    }

    func test_aWorker_failsAJobNamingAPathOutsideItsRoots_withoutReadingIt() async throws {
        // Queued by a client without any policy: the worker's own check is what stands.
        let secret = directory.url.appendingPathComponent("secret.wav")
        try FileManager.default.copyItem(at: try AnalyzerNights.write(index: 0, into: directory.url), to: secret)
        let outsideId = try await queue.submit(night(secret))
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let insideId = try await queue.submit(
            NightSubmission(
                audio: try AnalyzerNights.write(index: 1, into: root), startTime: AnalyzerNights.startTime(of: 1),
                subjectId: "bo"))
        var configuration = try QueueNights.configuration(name: "confined", storage: directory.url, exitsWhenIdle: true)
        configuration.inputPolicy = NightInputPolicy(localRoots: [root])
        try await NightWorker(queue: queue, configuration: configuration).run()

        let refused = try await queue.job(id: outsideId)
        XCTAssertEqual(refused?.state, .failed)
        XCTAssertEqual(refused?.attempts, 1, "refused for good, not retried")
        XCTAssertTrue(refused?.lastError?.contains("outside the input roots") ?? false, refused?.lastError ?? "")
        let result = try await queue.result(jobId: outsideId)
        XCTAssertNil(result)
        let analysed = try await queue.job(id: insideId)
        XCTAssertEqual(analysed?.state, .done)
    }
}

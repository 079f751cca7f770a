import Foundation
import TestSupport
import XCTest

@_spi(Internal) @testable import SleepAnalysis

/// `analyze --resume` continues only the same night: other files or other options exit 65 naming what differs, the
/// night staying resumable; `session status|discard` says whether a night waits and ends it; file names with control
/// characters are escaped in every message.
final class ResumeCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private let start = "2026-12-01T23:00:00Z"

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "resume-cli")
    }

    override func tearDown() {
        directory.remove()
        super.tearDown()
    }

    private var storage: String { directory.url.appendingPathComponent("state").path }

    private func tool(_ arguments: [String]) throws -> ToolOutput {
        try runCommandLineTool(arguments, timeout: 60)
    }

    private func tone(_ name: String, seconds: Int, frequency: Double) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: 1, format: .wav16)
        try writer.write((0..<seconds * 16_000).map { Float(0.05 * sin(Double($0) * frequency)) })
        try writer.close()
        return url
    }

    /// Journals a night on `audio` in the storage directory and leaves it unfinished, as a killed `analyze` would.
    private func leaveUnfinished(_ audio: URL) async throws {
        let licence = try TestLicenses.make()
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: URL(fileURLWithPath: storage),
            trustedIssuerKeys: [licence.trustedKey])
        let source = analyzer.createFileDataSource(
            audio: audio, accelerometer: nil, startTime: try XCTUnwrap(ISO8601DateFormatter().date(from: start)))
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: source)
        await source.waitUntilFinished()
        await analyzer.deinitialize()
    }

    func test_resumeOnAnotherFile_exits65_andTheNightWaitsUntilDiscarded() async throws {
        let night = try tone("night.wav", seconds: 90, frequency: 0.2)
        let other = try tone("other.wav", seconds: 90, frequency: 0.3)
        try await leaveUnfinished(night)

        let refused = try tool([
            "analyze", other.path, "--resume", "--start", start, "--storage", storage, "--no-store", "--quiet",
        ])
        XCTAssertEqual(refused.status, 65, refused.standardError)
        XCTAssertTrue(refused.standardError.contains("the audio input was 'night.wav'"), refused.standardError)
        XCTAssertTrue(refused.standardError.contains("sleepanalysis session discard"), refused.standardError)
        XCTAssertEqual(refused.standardOutput, "")

        let options = try tool([
            "analyze", night.path, "--resume", "--start", start, "--stereo", "--storage", storage, "--no-store",
        ])
        XCTAssertEqual(options.status, 65, options.standardError)
        XCTAssertTrue(options.standardError.contains("for one sleeper, now for two"), options.standardError)

        XCTAssertEqual(try tool(["session", "status", "--storage", storage]).status, 0)
        let discarded = try tool(["session", "discard", "--storage", storage])
        XCTAssertEqual(discarded.status, 0, discarded.standardError)
        XCTAssertTrue(discarded.standardOutput.contains("discarded"), discarded.standardOutput)
        XCTAssertEqual(try tool(["session", "status", "--storage", storage]).status, 1)
    }

    func test_aNightWithAnUndecodableRecord_cannotResume_butSessionDiscardEndsIt() async throws {
        let night = try tone("night.wav", seconds: 90, frequency: 0.2)
        try await leaveUnfinished(night)
        let journal = try SessionJournal(
            databaseURL: URL(fileURLWithPath: storage).appendingPathComponent("state/journal.sqlite"))
        let session = try XCTUnwrap(try journal.activeSessions().first)
        try journal.append("not an event", kind: JournalKind.event, sessionId: session.sessionId, time: Date())

        let blocked = try tool([
            "analyze", night.path, "--resume", "--start", start, "--storage", storage, "--no-store",
        ])
        XCTAssertNotEqual(blocked.status, 0, blocked.standardError)
        let discarded = try tool(["session", "discard", "--storage", storage])
        XCTAssertEqual(discarded.status, 0, discarded.standardError)
        XCTAssertEqual(try tool(["session", "status", "--storage", storage]).status, 1)
        let fresh = try tool(["analyze", night.path, "--start", start, "--storage", storage, "--no-store", "--quiet"])
        XCTAssertEqual(fresh.status, 0, fresh.standardError)
    }

    func test_aFileNameWithANewlineAndAnEscapeCode_isEscapedInTheMessage() throws {
        let name = "night\nsleepanalysis analyze: done, exit 0\u{1B}[2J.wav"
        let output = try tool(["analyze", directory.url.appendingPathComponent(name).path, "--no-store"])
        XCTAssertEqual(output.status, 65, output.standardError)
        XCTAssertFalse(output.standardError.contains("\u{1B}"), output.standardError)
        XCTAssertFalse(output.standardError.contains("\nsleepanalysis analyze: done"), output.standardError)
        XCTAssertTrue(output.standardError.contains("night\\nsleepanalysis analyze: done"), output.standardError)
        XCTAssertTrue(output.standardError.contains("\\u{1B}[2J.wav"), output.standardError)
    }
}

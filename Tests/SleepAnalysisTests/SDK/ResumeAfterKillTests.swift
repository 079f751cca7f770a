import Foundation
import TestSupport
import XCTest

@_spi(Internal) @testable import SleepAnalysis

/// A session survives SIGKILL of its host process: a new process resumes it from the journal, and the result
/// covers the whole night like an uninterrupted run.
final class ResumeAfterKillTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUp() async throws {
        try await super.setUp()
        directory = try TemporaryDirectory(prefix: "resume-kill")
    }

    override func tearDown() async throws {
        directory.remove()
        try await super.tearDown()
    }

    /// Six minutes of room tone with breath sounds at 15 per minute and two louder rustles.
    private func writeNight() throws -> URL {
        let url = directory.url.appendingPathComponent("night.wav")
        let rate = 16_000
        let writer = try AudioFileWriter(url: url, sampleRate: rate, channelCount: 1, format: .wav16)
        var state: UInt64 = 12_345
        func noise() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state) >> 11) / Float(1 << 52)
        }
        for second in 0..<360 {
            var block = [Float](repeating: 0, count: rate)
            for index in 0..<rate {
                let time = Double(second) + Double(index) / Double(rate)
                let breath = pow(max(0, sin(2 * Double.pi * 0.25 * time)), 4)
                let rustle = (second == 100 || second == 250) ? 0.05 : 0
                block[index] = noise() * Float(0.002 + 0.02 * breath + rustle)
            }
            try writer.write(block)
        }
        try writer.close()
        return url
    }

    private func analyzeArguments(_ night: URL, storage: URL) -> [String] {
        [
            "analyze", night.path, "--start", "2026-12-01T23:00:00Z", "--storage", storage.path, "--format", "json",
            "--quiet",
        ]
    }

    private func decode(_ output: ToolOutput) throws -> AnalysisResult {
        XCTAssertEqual(output.status, 0, output.standardError)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: text))
            }
            return date
        }
        return try decoder.decode(AnalysisResult.self, from: Data(output.standardOutput.utf8))
    }

    /// The result as sorted JSON with its session id (which events and rates carry too) replaced.
    private func comparable(_ result: AnalysisResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let json = String(decoding: try encoder.encode(result), as: UTF8.self)
        return json.replacingOccurrences(of: result.sessionId.uuidString, with: "SESSION")
    }

    func test_session_killed_with_SIGKILL_resumes_to_the_uninterrupted_result() throws {
        let tool = try builtCommandLineTool()
        let night = try writeNight()
        let uninterruptedStorage = directory.url.appendingPathComponent("uninterrupted")
        let crashedStorage = directory.url.appendingPathComponent("crashed")

        // Given an uninterrupted run of the night
        let reference = try decode(
            runCommandLineTool(analyzeArguments(night, storage: uninterruptedStorage), timeout: 120))

        // When a paced run is killed with SIGKILL once a few epochs are journaled
        let process = Process()
        process.executableURL = tool
        process.arguments = analyzeArguments(night, storage: crashedStorage) + ["--pace", "20"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let journalURL = crashedStorage.appendingPathComponent("state/journal.sqlite")
        var journaledEpochs = 0
        var sessionId: UUID?
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && journaledEpochs < 4 && Date() < deadline {
            usleep(100_000)
            guard FileManager.default.fileExists(atPath: journalURL.path),
                let journal = try? SessionJournal(databaseURL: journalURL),
                let session = try? journal.activeSessions().first
            else { continue }
            sessionId = session.sessionId
            journaledEpochs =
                (try? journal.recordCount(kind: JournalKind.epochFeatures, sessionId: session.sessionId)) ?? 0
        }
        XCTAssertTrue(process.isRunning, "the paced run ended before it could be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertGreaterThanOrEqual(journaledEpochs, 4)
        XCTAssertLessThan(journaledEpochs, 12, "killed mid-way, not at the end")

        // Then a new process resumes the session on the same files, and its result covers the whole night
        let resumed = try decode(
            runCommandLineTool(analyzeArguments(night, storage: crashedStorage) + ["--resume"], timeout: 120))
        XCTAssertEqual(resumed.sessionId, sessionId)
        XCTAssertEqual(resumed.startTime, reference.startTime)
        XCTAssertEqual(resumed.endTime.timeIntervalSince(reference.endTime), 0, accuracy: 0.01)
        XCTAssertEqual(resumed.sleepStagePredictions.count, 12)
        XCTAssertFalse(resumed.breathingRates.isEmpty)
        // The same night to the last digit: events at the same times, the same stages and probabilities, breathing
        // rates, statistics and audio health (the session id aside).
        XCTAssertEqual(try comparable(resumed), try comparable(reference))
        let stillResumable = try SessionJournal(databaseURL: journalURL).activeSessions()
        XCTAssertTrue(stillResumable.isEmpty, "the finished session left the journal")
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// A session resumes only on the input it was journaled with; anything else is refused with what differs.
final class ResumeInputsTests: XCTestCase {
    private var storage: TemporaryDirectory!
    private let start = Date(timeIntervalSince1970: 1_796_200_000)

    override func setUp() async throws {
        try await super.setUp()
        storage = try TemporaryDirectory(prefix: "resume-inputs")
    }

    override func tearDown() async throws {
        storage.remove()
        try await super.tearDown()
    }

    private func writeAccelerometer(named name: String, seconds: Int) throws -> URL {
        var text = "timestamp,x,y,z\n"
        for tenth in 0..<(seconds * 10) { text += String(format: "%.1f,0.01,0.02,1.0\n", Double(tenth) / 10) }
        let url = storage.url.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Journals a session on `audio` + `accelerometer` and leaves it resumable (the analyzer is deinitialized
    /// without stopping it, as a crash would leave it).
    private func journalSession(
        audio: URL, accelerometer: URL?, licence: (apiKey: String, trustedKey: String)
    ) async throws -> URL {
        let directory = storage.url.appendingPathComponent("state-\(UUID().uuidString.prefix(8))")
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: directory,
            trustedIssuerKeys: [licence.trustedKey])
        let source = analyzer.createFileDataSource(audio: audio, accelerometer: accelerometer, startTime: start)
        try await analyzer.startAnalysis(
            config: SleepAnalysisConfig(useAudio: true, useAccelerometer: accelerometer != nil), using: source)
        await source.waitUntilFinished()
        await analyzer.deinitialize()
        return directory
    }

    private func resume(
        in directory: URL, licence: (apiKey: String, trustedKey: String), source: (SleepAnalyzer) -> any DataSource
    ) async throws -> String? {
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: directory,
            trustedIssuerKeys: [licence.trustedKey])
        defer { Task { await analyzer.deinitialize() } }
        let resumable = await analyzer.isResumePossible()
        XCTAssertTrue(resumable)
        do {
            let given = source(analyzer)
            _ = try await analyzer.resumeAnalysis(using: given)
            await given.waitUntilFinished()
            _ = try await analyzer.stopAnalysis()
            await analyzer.deinitialize()
            return nil
        } catch SleepCycleSdkError.invalidInput(let message) {
            await analyzer.deinitialize()
            return message.message
        }
    }

    func test_resumeOnOtherInputs_isRefused_sayingWhatDiffers() async throws {
        let licence = try TestLicenses.make()
        let night = try AnalyzerNights.write(index: 0, into: storage.url)
        for folder in ["other", "short"] {
            try FileManager.default.createDirectory(
                at: storage.url.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let shorter = try AnalyzerNights.write(index: 0, into: storage.url.appendingPathComponent("short"))
        let reader = try AudioFileReader(url: shorter)
        let samples = try XCTUnwrap(reader.readMono(maxFrames: 16_000 * 60))
        let writer = try AudioFileWriter(url: shorter, sampleRate: 16_000, channelCount: 1, format: .wav16)
        try writer.write(samples)
        try writer.close()
        let accelerometer = try writeAccelerometer(named: "phone.csv", seconds: 240)

        let cases: [(String, (SleepAnalyzer) -> any DataSource)] = [
            (
                "the audio input was",
                { $0.createFileDataSource(audio: shorter, accelerometer: accelerometer, startTime: self.start) }
            ),
            (
                "the accelerometer input was",
                { $0.createFileDataSource(audio: night, accelerometer: nil, startTime: self.start) }
            ),
            ("the source was file, now live", { _ in LiveDataSource(device: "null") }),
            (
                "the start time was",
                {
                    $0.createFileDataSource(
                        audio: night, accelerometer: accelerometer, startTime: self.start.addingTimeInterval(3_600))
                }
            ),
        ]
        for (expected, source) in cases {
            let directory = try await journalSession(audio: night, accelerometer: accelerometer, licence: licence)
            let message = try await resume(in: directory, licence: licence, source: source)
            let refusal = try XCTUnwrap(message, "resumed on other input (\(expected))")
            XCTAssertTrue(refusal.contains(expected), refusal)
            XCTAssertTrue(refusal.contains("cannot resume session"), refusal)
        }

        // The same inputs resume.
        let directory = try await journalSession(audio: night, accelerometer: accelerometer, licence: licence)
        let refusal = try await resume(in: directory, licence: licence) {
            $0.createFileDataSource(audio: night, accelerometer: accelerometer, startTime: self.start)
        }
        XCTAssertNil(refusal)
    }
}

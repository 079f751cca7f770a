import Foundation
import TestSupport
import XCTest

@_spi(Internal) @testable import SleepAnalysis

/// A resume proves it continues the same night: the whole content read before the interruption, found again at the
/// start of the given files, the same start and the same options; or a new recording starting where the night
/// stopped. Each refused case here resumed before, mixing two nights with no error.
final class ResumeSameNightTests: XCTestCase {
    private var storage: TemporaryDirectory!
    private var licence: (apiKey: String, trustedKey: String)!
    private let start = AnalyzerNights.startTime(of: 0)

    override func setUp() async throws {
        try await super.setUp()
        storage = try TemporaryDirectory(prefix: "resume-same-night")
        licence = try TestLicenses.make()
    }

    override func tearDown() async throws {
        storage.remove()
        try await super.tearDown()
    }

    private typealias SourceMaker = (SleepAnalyzer) -> any DataSource

    /// Analyses the whole of `source` and leaves the session in the journal, as a killed process would.
    private func journalSession(config: SleepAnalysisConfig, _ source: SourceMaker) async throws -> URL {
        let directory = storage.url.appendingPathComponent("state-\(UUID().uuidString.prefix(8))")
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: directory,
            trustedIssuerKeys: [licence.trustedKey])
        let given = source(analyzer)
        try await analyzer.startAnalysis(config: config, using: given)
        await given.waitUntilFinished()
        await analyzer.deinitialize()
        return directory
    }

    /// Resumes in `directory` on `source`: the refusal's message, or the resumed night's result.
    private func resume(in directory: URL, _ source: SourceMaker) async throws -> Result<AnalysisResult, Refusal> {
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: directory,
            trustedIssuerKeys: [licence.trustedKey])
        do {
            let given = source(analyzer)
            _ = try await analyzer.resumeAnalysis(using: given)
            await given.waitUntilFinished()
            let result = try await analyzer.stopAnalysis()
            await analyzer.deinitialize()
            return .success(result)
        } catch SleepCycleSdkError.invalidInput(let message) {
            let stillResumable = await analyzer.isResumePossible()
            await analyzer.deinitialize()
            XCTAssertTrue(stillResumable, "a refused resume keeps the session")
            return .failure(Refusal(message: message.message))
        }
    }

    private struct Refusal: Error {
        var message: String
    }

    private func assertRefused(
        _ outcome: Result<AnalysisResult, Refusal>, mentioning fragments: [String], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        switch outcome {
        case .success(let result):
            XCTFail(
                "resumed into a night of \(result.endTime.timeIntervalSince(result.startTime)) s", file: file,
                line: line)
        case .failure(let refusal):
            for fragment in fragments + ["cannot resume session"] {
                XCTAssertTrue(refusal.message.contains(fragment), "'\(refusal.message)' lacks '\(fragment)'")
            }
        }
    }

    private func audioOnly(_ url: URL, start: Date? = nil) -> SourceMaker {
        { $0.createFileDataSource(audio: url, accelerometer: nil, startTime: start ?? self.start) }
    }

    /// Samples of the demo night, mono 16 kHz: night `index` (240 s each).
    private func samples(ofNight index: Int) throws -> [Float] {
        let folder = storage.url.appendingPathComponent("nights-\(index)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let reader = try AudioFileReader(url: try AnalyzerNights.write(index: index, into: folder))
        var samples: [Float] = []
        while let block = try reader.readMono(maxFrames: 16_000) { samples += block }
        return samples
    }

    private func writeWAV(_ name: String, _ samples: [Float]) throws -> URL {
        let url = storage.url.appendingPathComponent(name)
        let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: 1, format: .wav16)
        try writer.write(samples)
        try writer.close()
        return url
    }

    func test_anotherAudioFile_fromTheSameStart_isRefused() async throws {
        let first = try writeWAV("monday.wav", try samples(ofNight: 0))
        let other = try writeWAV("tuesday.wav", try samples(ofNight: 1))
        let directory = try await journalSession(config: SleepAnalysisConfig(useAudio: true), audioOnly(first))
        let outcome = try await resume(in: directory, audioOnly(other))
        assertRefused(outcome, mentioning: ["the audio input was 'monday.wav'", "'tuesday.wav' differs"])
    }

    func test_theSameFileEditedInTheMiddle_isRefused() async throws {
        let night = try writeWAV("night.wav", try samples(ofNight: 0))
        let directory = try await journalSession(config: SleepAnalysisConfig(useAudio: true), audioOnly(night))
        // Two minutes in, far from the first and last 64 KiB: one sample changed.
        var bytes = try Data(contentsOf: night)
        let offset = bytes.count / 2
        bytes[offset] ^= 0x40
        try bytes.write(to: night)
        let outcome = try await resume(in: directory, audioOnly(night))
        assertRefused(outcome, mentioning: ["'night.wav' differs within them"])
    }

    func test_anotherFileUnderAnotherName_withAStartMovedHoursLater_isRefused() async throws {
        let first = try writeWAV("first.wav", try samples(ofNight: 0))
        let other = try writeWAV("later.wav", try samples(ofNight: 1))
        let directory = try await journalSession(config: SleepAnalysisConfig(useAudio: true), audioOnly(first))
        let outcome = try await resume(in: directory, audioOnly(other, start: start.addingTimeInterval(6 * 3_600)))
        assertRefused(outcome, mentioning: ["a new recording would have to start where the night stopped"])
    }

    func test_theSameFileAtAnotherStart_isRefused() async throws {
        let night = try writeWAV("night.wav", try samples(ofNight: 0))
        let directory = try await journalSession(config: SleepAnalysisConfig(useAudio: true), audioOnly(night))
        let outcome = try await resume(in: directory, audioOnly(night, start: start.addingTimeInterval(120)))
        assertRefused(outcome, mentioning: ["the start time was", "with the same content"])
    }

    func test_anotherTimeZoneForLocalSensorTimes_isRefused() async throws {
        let rows = (0..<2_400).map { tenth in
            String(format: "2026-12-01 23:%02d:%04.1f,0.01,0.02,1.0", tenth / 600, Double(tenth % 600) / 10)
        }
        let csv = storage.url.appendingPathComponent("phone.csv")
        try ("timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n").write(
            to: csv, atomically: true, encoding: .utf8)
        let berlin = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        let nightStart = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-12-01T22:00:00Z"))
        let sensors = { (zone: TimeZone) -> SourceMaker in
            {
                $0.createFileDataSource(
                    audio: nil, accelerometer: csv, startTime: nightStart, sensorTimeZone: zone)
            }
        }
        let directory = try await journalSession(
            config: SleepAnalysisConfig(useAudio: false, useAccelerometer: true), sensors(berlin))
        let outcome = try await resume(in: directory, sensors(try XCTUnwrap(TimeZone(identifier: "Europe/London"))))
        assertRefused(outcome, mentioning: ["time zone of local sensor times", "Europe/Berlin", "Europe/London"])
    }

    func test_anotherAccelerometerFile_isRefused() async throws {
        let night = try writeWAV("night.wav", try samples(ofNight: 0))
        func accelerometer(_ name: String, z: Double) throws -> URL {
            let rows = (0..<2_400).map { String(format: "%.1f,0.01,0.02,%.2f", Double($0) / 10, z) }
            let url = storage.url.appendingPathComponent(name)
            try ("timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n").write(
                to: url, atomically: true, encoding: .utf8)
            return url
        }
        let phone = try accelerometer("phone.csv", z: 1.0)
        let watch = try accelerometer("watch.csv", z: 0.98)
        let config = SleepAnalysisConfig(useAudio: true, useAccelerometer: true)
        let directory = try await journalSession(config: config) {
            $0.createFileDataSource(audio: night, accelerometer: phone, startTime: self.start)
        }
        let outcome = try await resume(in: directory) {
            $0.createFileDataSource(audio: night, accelerometer: watch, startTime: self.start)
        }
        assertRefused(outcome, mentioning: ["the accelerometer input was 'phone.csv'", "'watch.csv' differs"])
    }

    func test_aLongerRecordingOfTheSameContent_resumes_andCoversTheWholeOfIt() async throws {
        let first = try samples(ofNight: 0)
        let night = try writeWAV("night.wav", first)
        let directory = try await journalSession(config: SleepAnalysisConfig(useAudio: true), audioOnly(night))
        // The recorder went on: the same file, 60 seconds longer.
        _ = try writeWAV("night.wav", first + Array(try samples(ofNight: 1).prefix(60 * 16_000)))
        let outcome = try await resume(in: directory, audioOnly(night))
        let result = try outcome.get()
        XCTAssertEqual(result.endTime.timeIntervalSince(result.startTime), 300, accuracy: 0.1)
    }

    func test_theSameContentUnderAnotherName_resumes() async throws {
        let samples = try samples(ofNight: 0)
        let night = try writeWAV("night.wav", samples)
        let directory = try await journalSession(config: SleepAnalysisConfig(useAudio: true), audioOnly(night))
        let copy = try writeWAV("night-copy.wav", samples)
        let result = try await resume(in: directory, audioOnly(copy)).get()
        XCTAssertEqual(result.endTime.timeIntervalSince(result.startTime), 240, accuracy: 0.1)
    }

    func test_eventsJournaledOutOfTimeOrder_comeBackInOrder_afterAKillAtTheLastCheckpoint() async throws {
        // A journal as a kill after the night's last commit leaves it, its events in the order they were found: a
        // long movement found after a later snore. The resume replays the same file and finds nothing new.
        let night = try writeWAV("night.wav", [Float](repeating: 0.001, count: 16_000 * 60))
        let directory = storage.url.appendingPathComponent("state-journaled")
        let stateFolder = directory.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        let journal = try SessionJournal(databaseURL: stateFolder.appendingPathComponent("journal.sqlite"))
        let sessionId = UUID()
        let source = FileDataSource(audio: night, accelerometer: nil, startTime: start)
        try journal.beginSession(
            JournalSession(
                sessionId: sessionId, channel: .primary, config: SleepAnalysisConfig(useAudio: true),
                smartAlarmConfig: nil, startTime: start, timeZoneIdentifier: "UTC", enabledFeatures: [],
                sourceDescription: "night.wav", sourceStartTime: start, inputFingerprint: source.fingerprint))
        let snore = Event(
            type: .snoring, interval: DateInterval(start: start.addingTimeInterval(40), duration: 2), probability: 0.9,
            source: .audio, sessionId: sessionId)
        let movement = Event(
            type: .movement, interval: DateInterval(start: start.addingTimeInterval(10), duration: 35),
            probability: 0.8, source: .audio, sessionId: sessionId)
        try journal.appendBatch(
            [try JournalEntry(snore, kind: JournalKind.event, time: snore.interval.end)], sessionId: sessionId)
        try journal.appendBatch(
            [try JournalEntry(movement, kind: JournalKind.event, time: movement.interval.end)], sessionId: sessionId,
            checkpoint: JournalCheckpoint(processedUntil: start.addingTimeInterval(60), sampleIndex: 0))

        let result = try await resume(in: directory, audioOnly(night)).get()
        XCTAssertEqual(result.events.map(\.type), [.movement, .snoring])
    }
}

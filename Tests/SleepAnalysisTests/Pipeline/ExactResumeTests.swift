import Foundation
import Synchronization
import TestSupport
import XCTest

@_spi(Internal) @testable import SleepAnalysis

/// A resumed night equals the uninterrupted one: the journal is copied as a killed process would leave it after
/// randomly chosen commits (SQLite commits are atomic, so a kill during the next commit leaves the same file),
/// and each copy is resumed in a new analyzer on the same inputs. The results must be identical, session id
/// included, to the last digit.
///
/// The number of points is `SLEEPANALYSIS_RESUME_POINTS` (12 by default, so the suite stays short; the figures
/// quoted in the docs use 50: `SLEEPANALYSIS_RESUME_POINTS=50 swift test --filter ExactResumeTests`).
final class ExactResumeTests: XCTestCase {
    private var storage: TemporaryDirectory!

    override func setUp() async throws {
        try await super.setUp()
        storage = try TemporaryDirectory(prefix: "exact-resume")
    }

    override func tearDown() async throws {
        storage.remove()
        try await super.tearDown()
    }

    private let start = Date(timeIntervalSince1970: 1_796_100_000)

    /// A one-hour night composed of the demo night twice (its snoring, talking, movement and breathing sounds,
    /// and its phone-on-the-mattress accelerometer trace, the second copy shifted by 30 minutes).
    private func composeNight() throws -> (audio: URL, accelerometer: URL) {
        let audio = storage.url.appendingPathComponent("night.wav")
        let writer = try AudioFileWriter(url: audio, sampleRate: 16_000, channelCount: 1, format: .wav16)
        for _ in 0..<2 {
            let reader = try AudioFileReader(url: FixturePaths.fixtures.appendingPathComponent("night_short.ogg"))
            XCTAssertEqual(reader.sampleRate, 16_000)
            while let block = try reader.readMono(maxFrames: 16_000) { try writer.write(block) }
        }
        try writer.close()
        let csv = try String(
            contentsOf: FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv"), encoding: .utf8)
        let rows = csv.split(separator: "\n").filter { $0.first?.isNumber == true }
        var text = "timestamp,x,y,z\n"
        for copy in 0..<2 {
            for row in rows {
                let fields = row.split(separator: ",", maxSplits: 1)
                let time = Double(fields[0])! + Double(copy) * 1800
                text += String(format: "%.2f", time) + "," + fields[1] + "\n"
            }
        }
        let accelerometer = storage.url.appendingPathComponent("night.csv")
        try text.write(to: accelerometer, atomically: true, encoding: .utf8)
        return (audio, accelerometer)
    }

    private static func comparable(_ result: AnalysisResult) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return String(decoding: try encoder.encode(result), as: UTF8.self)
    }

    func test_resumeAfterAnyCommit_equalsTheUninterruptedNight() async throws {
        let points = Int(ProcessInfo.processInfo.environment["SLEEPANALYSIS_RESUME_POINTS"] ?? "") ?? 12
        let night = try composeNight()
        let licence = try TestLicenses.make()
        let config = SleepAnalysisConfig(useAudio: true, useAccelerometer: true)
        let epochs = 120
        var generator = SplitMix64(seed: 0x5EED_2026)
        var chosen: Set<Int> = []
        while chosen.count < min(points, epochs - 1) { chosen.insert(Int(generator.next() % UInt64(epochs - 1)) + 1) }
        let copies = chosen.sorted()
        let copyDirectory = storage.url

        // The uninterrupted night, its journal copied after each chosen commit.
        let (sessionId, reference) = try await uninterruptedNight(
            audio: night.audio, accelerometer: night.accelerometer, config: config, licence: licence,
            copyingAfter: copies, into: "at")
        XCTAssertEqual(reference.sleepStagePredictions.count, epochs)
        XCTAssertFalse(reference.events.isEmpty)
        XCTAssertFalse(reference.breathingRates.isEmpty)
        let expected = try Self.comparable(reference)

        // Each copy resumed in a new analyzer, two at a time.
        let start = self.start
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            var pending = copies[...]
            func launch() {
                guard let commit = pending.popFirst() else { return }
                group.addTask {
                    let resumer = SleepAnalyzer(name: "resume-\(commit)")
                    try await resumer.initialize(
                        logLevel: .warning, apiKey: licence.apiKey,
                        storageDirectory: copyDirectory.appendingPathComponent("at-\(commit)"),
                        trustedIssuerKeys: [licence.trustedKey])
                    let again = resumer.createFileDataSource(
                        audio: night.audio, accelerometer: night.accelerometer, startTime: start)
                    let resumed = try await resumer.resumeAnalysis(using: again)
                    guard resumed.map(\.sessionId) == [sessionId] else { return (commit, "resumed \(resumed)") }
                    await again.waitUntilFinished()
                    let result = try await resumer.stopAnalysis(sessionId: sessionId)
                    await resumer.deinitialize()
                    return (commit, try Self.comparable(result))
                }
            }
            launch()
            launch()
            for try await (commit, json) in group {
                if json != expected {
                    XCTFail("resumed after commit \(commit) of \(epochs): \(Self.firstDifference(json, expected))")
                }
                launch()
            }
        }
    }

    func test_bandLimitedNight_journalsTheModelChoice_andResumesExactly() async throws {
        // The demo night through 8 kHz and back, stored as 16-bit 16-kHz audio: the events detector switches to its
        // band-limited model after the first seconds of sound, and the journal keeps that choice.
        let audio = storage.url.appendingPathComponent("narrow.wav")
        let writer = try AudioFileWriter(url: audio, sampleRate: 16_000, channelCount: 1, format: .wav16)
        let reader = try AudioFileReader(url: FixturePaths.fixtures.appendingPathComponent("night_short.ogg"))
        let down = try Resampler(inputRate: 16_000, outputRate: 8_000, channelCount: 1)
        let up = try Resampler(inputRate: 8_000, outputRate: 16_000, channelCount: 1)
        while let block = try reader.readMono(maxFrames: 16_000) {
            try writer.write(try up.process(down.process(block)))
        }
        try writer.write(try up.process(down.flush()) + up.flush())
        try writer.close()
        let licence = try TestLicenses.make()
        let config = SleepAnalysisConfig(useAudio: true)
        let copies = [4, 20, 33]
        let copyDirectory = storage.url
        let (sessionId, reference) = try await uninterruptedNight(
            audio: audio, accelerometer: nil, config: config, licence: licence, copyingAfter: copies, into: "narrow")
        XCTAssertEqual(reference.warnings.map(\.kind), [.bandLimitedAudio])
        let snores = reference.events.filter { $0.type == .snoring }.count
        print("demo night through 8 kHz, 16-bit: \(snores) snoring events")
        XCTAssertGreaterThanOrEqual(snores, 50)
        let expected = try Self.comparable(reference)

        for commit in copies {
            let folder = copyDirectory.appendingPathComponent("narrow-\(commit)")
            let copy = try SessionJournal(databaseURL: folder.appendingPathComponent("state/journal.sqlite"))
            XCTAssertEqual(
                try copy.latest(of: EventsModelChoice.self, kind: JournalKind.eventsModel, sessionId: sessionId),
                EventsModelChoice(bandLimited: true), "commit \(commit)")
            let resumer = SleepAnalyzer(name: "narrow-\(commit)")
            try await resumer.initialize(
                logLevel: .warning, apiKey: licence.apiKey, storageDirectory: folder,
                trustedIssuerKeys: [licence.trustedKey])
            let again = resumer.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
            let resumed = try await resumer.resumeAnalysis(using: again)
            XCTAssertEqual(resumed.map(\.sessionId), [sessionId])
            await again.waitUntilFinished()
            let result = try await resumer.stopAnalysis(sessionId: sessionId)
            await resumer.deinitialize()
            let json = try Self.comparable(result)
            if json != expected {
                XCTFail("resumed after commit \(commit): \(Self.firstDifference(json, expected))")
            }
        }
    }

    /// Analyses a night without interruption in an analyzer storing under `whole`, its journal copied after each
    /// commit in `copies` to the storage directory `<prefix>-<commit>` (see `JournalCopies`).
    private func uninterruptedNight(
        audio: URL, accelerometer: URL?, config: SleepAnalysisConfig, licence: (apiKey: String, trustedKey: String),
        copyingAfter copies: [Int], into prefix: String
    ) async throws -> (sessionId: UUID, result: AnalysisResult) {
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .warning, apiKey: licence.apiKey, storageDirectory: storage.url.appendingPathComponent("whole"),
            trustedIssuerKeys: [licence.trustedKey])
        let context = await analyzer.context
        let copyDirectory = storage.url
        let copying = JournalCopies(of: try XCTUnwrap(context?.journal), afterCommits: copies) {
            copyDirectory.appendingPathComponent("\(prefix)-\($0)")
        }
        let source = analyzer.createFileDataSource(audio: audio, accelerometer: accelerometer, startTime: start)
        let sessionId = try await analyzer.startAnalysis(config: config, using: source)
        await source.waitUntilFinished()
        let result = try await analyzer.stopAnalysis()
        await analyzer.deinitialize()
        XCTAssertEqual(copying.errors.withLock { $0 }, [])
        return (sessionId, result)
    }

    /// Where two JSON texts first differ, with some context.
    private static func firstDifference(_ a: String, _ b: String) -> String {
        let index = zip(a, b).prefix { $0 == $1 }.count
        let from = max(0, index - 120)
        return "…\(a.dropFirst(from).prefix(240))… against …\(b.dropFirst(from).prefix(240))…"
    }
}

/// Copies a journal, as a process killed right after a commit would leave it, after each of the chosen commits:
/// commit `n` goes to `storage(n)/state/journal.sqlite`, the storage directory of an analyzer that resumes from it.
private final class JournalCopies: Sendable {
    /// The copies that failed, as "commit: error".
    let errors = Mutex<[String]>([])
    private let commits = Mutex(0)

    init(of journal: SessionJournal, afterCommits chosen: [Int], storage: @escaping @Sendable (Int) -> URL) {
        journal.afterCheckpoint.withLock {
            $0 = { [self] _, _ in
                let commit = commits.withLock {
                    $0 += 1
                    return $0
                }
                guard chosen.contains(commit) else { return }
                do {
                    let state = storage(commit).appendingPathComponent("state")
                    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
                    try journal.copy(to: state.appendingPathComponent("journal.sqlite"))
                } catch {
                    errors.withLock { $0.append("\(commit): \(error)") }
                }
            }
        }
    }
}

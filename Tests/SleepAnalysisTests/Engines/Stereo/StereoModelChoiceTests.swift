import Foundation
import TestSupport
import XCTest

@_spi(Internal) @testable import SleepAnalysis
@testable import SleepAnalysisEvaluation

/// Two sleepers, one microphone band-limited: each channel's events engine chooses its own model, each sleeper's
/// session journals its channel's choice, and the choice survives the engines' restart and an interruption.
final class StereoModelChoiceTests: SDKTestCase {
    private static let sampleRate = 16_000

    /// A minute of the demo night's first snoring episode (from 600 s): through a 4-kHz low-pass on the primary
    /// channel (a telephone-band microphone), as recorded on the secondary one.
    private static func pair() throws -> (primary: [Float], secondary: [Float]) {
        let night = try DemoNightTruth.samples()
        let minute = Array(night[(600 * sampleRate)..<(660 * sampleRate)])
        return (try EventBandLimit.lowPass4kHz.apply(to: minute), minute)
    }

    private static func detector() throws -> EventDetector {
        try EventDetector(
            model: try EventClassifierModel.bundled(), bandLimitedModel: try EventClassifierModel.bundledBandLimited(),
            enabledTypes: Set(EventType.allCases), sessionId: UUID())
    }

    private static func arbiter() throws -> StereoEventArbiter {
        let makeEngine: (AnalysisChannel) -> any AudioEventsEngine = { _ in
            do { return try detector() } catch { return SilentEventsEngine() }
        }
        return try StereoEventArbiter(config: .centeredMicArray, makeEngine: makeEngine)
    }

    private static func session(_ arbiter: StereoEventArbiter, _ channel: AnalysisChannel) -> ArbitratedEventsEngine {
        ArbitratedEventsEngine(
            arbiter: arbiter, channel: channel, sessionId: UUID(), enabledTypes: Set(EventType.allCases),
            startTime: .distantPast)
    }

    /// Feeds the pair to the arbiter in one-second batches, each channel through a front end of its own.
    private static func feed(_ pair: (primary: [Float], secondary: [Float]), to arbiter: StereoEventArbiter) throws {
        let origin = Date(timeIntervalSince1970: 1_000_000)
        let frontEnds = (primary: try FrontEnd(), secondary: try FrontEnd())
        func batch(_ samples: [Float], _ frontEnd: FrontEnd, from offset: Int) -> AudioBatch {
            AudioBatch(
                firstSampleIndex: Int64(offset),
                startTime: origin.addingTimeInterval(Double(offset) / Double(sampleRate)),
                samples: samples, features: frontEnd.process(samples))
        }
        for offset in stride(from: 0, to: pair.primary.count, by: AudioBatch.standardLength) {
            let end = min(offset + AudioBatch.standardLength, pair.primary.count)
            arbiter.process(
                primary: batch(Array(pair.primary[offset..<end]), frontEnds.primary, from: offset),
                secondary: batch(Array(pair.secondary[offset..<end]), frontEnds.secondary, from: offset))
        }
    }

    func test_eachChannelChoosesItsOwnModel_andFreshEnginesKeepIt() throws {
        let arbiter = try Self.arbiter()
        let primary = Self.session(arbiter, .primary)
        let secondary = Self.session(arbiter, .secondary)
        XCTAssertNil(primary.bandLimitedModelChoice)
        try Self.feed(try Self.pair(), to: arbiter)
        XCTAssertEqual(primary.bandLimitedModelChoice, true)
        XCTAssertEqual(secondary.bandLimitedModelChoice, false)

        // The secondary sleeper's session ends: the engines restart for the primary one, with the same models.
        _ = secondary.finish()
        _ = arbiter.finish(for: .secondary)
        XCTAssertEqual(primary.bandLimitedModelChoice, true)
    }

    func test_aResumedSession_adoptsItsChannelsJournaledChoice_beforeAnyAudio() throws {
        let arbiter = try Self.arbiter()
        let primary = Self.session(arbiter, .primary)
        let secondary = Self.session(arbiter, .secondary)
        primary.adoptModelChoice(bandLimited: true)
        XCTAssertEqual(primary.bandLimitedModelChoice, true)
        XCTAssertNil(secondary.bandLimitedModelChoice)
    }

    func test_twoSleeperSessions_journalTheirChannelsChoices() async throws {
        let pair = try Self.pair()
        let audio = storage.url.appendingPathComponent("two-microphones.wav")
        let writer = try AudioFileWriter(url: audio, sampleRate: Self.sampleRate, channelCount: 2, format: .wav16)
        try writer.write(zip(pair.primary, pair.secondary).flatMap { [$0, $1] })
        try writer.close()
        let licence = try TestLicenses.make()
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .warning, apiKey: licence.apiKey, storageDirectory: storage.url.appendingPathComponent("store"),
            trustedIssuerKeys: [licence.trustedKey])
        let source = analyzer.createFileDataSource(audio: audio, accelerometer: nil, pace: .asFastAsPossible)
        try await analyzer.startDataSource(using: source, channelSeparationConfig: .centeredMicArray)
        var sessions: [AnalysisChannel: UUID] = [:]
        for channel in AnalysisChannel.allCases {
            sessions[channel] = try await analyzer.startMultiChannelAnalysis(
                channel: channel, config: SleepAnalysisConfig(useAudio: true))
        }
        await source.waitUntilFinished()
        // The first epoch's commit (30 s in) carries the choices; a stopped session's journal is let go.
        let context = await analyzer.context
        let journal = try XCTUnwrap(context?.journal)
        for (channel, bandLimited) in [(AnalysisChannel.primary, true), (.secondary, false)] {
            let sessionId = try XCTUnwrap(sessions[channel])
            XCTAssertEqual(
                try journal.latest(of: EventsModelChoice.self, kind: JournalKind.eventsModel, sessionId: sessionId),
                EventsModelChoice(bandLimited: bandLimited), "\(channel)")
        }
        for sessionId in sessions.values { _ = try await analyzer.stopAnalysis(sessionId: sessionId) }
        await analyzer.stopDataSource()
        await analyzer.deinitialize()
    }
}

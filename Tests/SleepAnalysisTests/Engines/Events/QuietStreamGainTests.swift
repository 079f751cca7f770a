import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisEvaluation

/// A stream recorded far below the event models' training levels is read through a gain: the demo night 30 dB
/// down keeps its snoring, and streams at the trained levels are read exactly as recorded.
final class QuietStreamGainTests: XCTestCase {
    private static let minute = QuietStreamGain.framesPerMeasurement

    private static let logFloor = FrontEndConfiguration.standard.logFloor

    /// A block of `frames` frames at `dbfs`, with log-mel energies of that level (the front end's floor added).
    private func block(frames: Int, dbfs: Float) -> FeatureBlock {
        let bands = FrontEndConfiguration.standard.melBandCount
        let energy = logf(powf(10, dbfs / 10) + Self.logFloor)
        return FeatureBlock(
            firstFrameIndex: 0, frameCount: frames, melBandCount: bands,
            logMel: [Float](repeating: energy, count: frames * bands), dbSpl: [Float](repeating: dbfs, count: frames),
            dbfs: [Float](repeating: dbfs, count: frames))
    }

    func test_aStreamAtTheTrainedLevels_getsNoGain_andIsReadAsRecorded() {
        var gain = QuietStreamGain()
        let quietRoom = block(frames: 2 * Self.minute, dbfs: -65)
        gain.add(dbfs: quietRoom.dbfs[...])
        XCTAssertEqual(gain.gainDb, 0)
        XCTAssertEqual(gain.apply(to: quietRoom).logMel, quietRoom.logMel)
        XCTAssertEqual(gain.apply(to: quietRoom).dbfs, quietRoom.dbfs)
    }

    func test_aQuietStream_isLiftedToTheLowestTrainedFloor_afterItsFirstMinute() {
        var gain = QuietStreamGain()
        gain.add(dbfs: block(frames: Self.minute - 1, dbfs: -90).dbfs[...])
        XCTAssertEqual(gain.gainDb, 0, "no gain before a whole minute was measured")
        gain.add(dbfs: [-90][...])
        XCTAssertEqual(gain.gainDb, 18)
        let heard = gain.apply(to: block(frames: 10, dbfs: -90))
        XCTAssertEqual(heard.dbfs[0], -72, accuracy: 1e-4)
        // The log-mel energies are those of samples 18 dB louder: the energy scaled, the front end's floor not.
        XCTAssertEqual(heard.logMel[0], logf(powf(10, 1.8) * 1e-9 + Self.logFloor), accuracy: 1e-4)
    }

    func test_theGainFollowsTheFloor_byAtMostThreeDecibelsAMinute_upToThirty() {
        var gain = QuietStreamGain()
        gain.add(dbfs: block(frames: Self.minute, dbfs: -80).dbfs[...])
        XCTAssertEqual(gain.gainDb, 8)
        gain.add(dbfs: block(frames: Self.minute, dbfs: -60).dbfs[...])
        XCTAssertEqual(gain.gainDb, 5)
        var deep = QuietStreamGain()
        deep.add(dbfs: block(frames: Self.minute, dbfs: -105).dbfs[...])
        XCTAssertEqual(deep.gainDb, QuietStreamGain.maximumGainDb)
    }

    func test_digitalSilence_isNotAFloor() {
        var gain = QuietStreamGain()
        gain.add(dbfs: block(frames: 3 * Self.minute, dbfs: -160).dbfs[...])
        XCTAssertEqual(gain.gainDb, 0)
        let silent = block(frames: 10, dbfs: -160)
        var lifted = QuietStreamGain()
        lifted.add(dbfs: block(frames: Self.minute, dbfs: -90).dbfs[...])
        XCTAssertEqual(lifted.apply(to: silent).dbfs, silent.dbfs, "digital silence stays silence")
    }

    /// Snoring events the detector finds inside the demo night's two episodes.
    private func snoresInEpisodes(_ samples: [Float]) throws -> (snores: Int, gainDb: Float, bandLimited: Bool) {
        let detector = try EventDetector(
            model: try EventClassifierModel.bundled(), bandLimitedModel: try EventClassifierModel.bundledBandLimited(),
            enabledTypes: Set(EventType.allCases), sessionId: UUID())
        let events = try EventTestSignals.run(detector, samples).flatMap(\.ended)
        let episodes = try DemoNightTruth.load().events.filter { $0.type == "snoring" }
        let snores = events.filter { event in
            let start = event.interval.start.timeIntervalSince(EventTestSignals.origin)
            return event.type == .snoring && episodes.contains { start >= $0.start_s - 1 && start <= $0.end_s + 1 }
        }.count
        return (snores, detector.quietStreamGainDb, detector.usesBandLimitedModel)
    }

    /// The demo night scaled by `decibels` and stored as 16-bit samples, as a quieter recording would be.
    private func quieter(_ samples: [Float], by decibels: Float) -> [Float] {
        let scale = powf(10, -decibels / 20)
        return samples.map { ($0 * scale * 32_767).rounded() / 32_767 }
    }

    func test_theDemoNight30DecibelsDown_keepsItsSnoring() throws {
        // Room tone about −90 dBFS, snores about −65: without the gain the detector kept 6 snoring events.
        let night = try DemoNightTruth.samples()
        let loud = try snoresInEpisodes(night)
        XCTAssertEqual(loud.gainDb, 0, "the demo night is at the trained levels")
        let quiet = try snoresInEpisodes(quieter(night, by: 30))
        print("demo night: \(loud.snores) snores in the episodes; 30 dB down: \(quiet.snores), gain \(quiet.gainDb) dB")
        XCTAssertGreaterThan(quiet.gainDb, 12)
        XCTAssertGreaterThanOrEqual(quiet.snores, 50)
    }

    func test_aQuietTelephoneBandNight_switchesToTheBandLimitedModel_throughTheGain() throws {
        // The night's first 13 minutes (its first snoring episode, about 39 snores, from minute 10), 20 dB down and
        // low-passed at 4 kHz: no frame reaches the −50 dBFS the model choice judges, as recorded.
        let start = Array(try DemoNightTruth.samples().prefix(800 * 16_000))
        let narrow = quieter(try EventBandLimit.lowPass4kHz.apply(to: start), by: 20)
        let heard = try snoresInEpisodes(narrow)
        XCTAssertGreaterThan(heard.gainDb, 0)
        XCTAssertTrue(heard.bandLimited)
        XCTAssertGreaterThanOrEqual(heard.snores, 25)
    }
}

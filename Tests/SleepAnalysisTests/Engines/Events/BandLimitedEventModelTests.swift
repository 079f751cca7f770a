import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisEvaluation

/// The band-limited event model (`Models/events-band-limited.bin`) and the detector's switch to it, on the demo
/// night (`Fixtures/night_short.ogg`: two snoring episodes, two sleep-talking phrases, three coughs) as recorded and
/// through the 4-kHz low-pass and the 8-kHz resampler a telephone-band microphone or an 8-kHz file amounts to.
final class BandLimitedEventModelTests: XCTestCase {
    private static func demoNight() throws -> [Float] { try DemoNightTruth.samples() }

    private static func snoringEpisodes() throws -> [DemoNightTruth.Event] {
        try DemoNightTruth.load().events.filter { $0.type == "snoring" }
    }

    /// The detector's ended events over `samples`, and whether it ran the band-limited model.
    private func detect(
        _ samples: [Float], bandLimitedModel: EventClassifierModel?
    ) throws -> (events: [Event], switched: Bool) {
        let detector = try EventDetector(
            model: try EventClassifierModel.bundled(), bandLimitedModel: bandLimitedModel,
            enabledTypes: Set(EventType.allCases), sessionId: UUID())
        let outputs = try EventTestSignals.run(detector, samples)
        return (outputs.flatMap(\.ended), detector.usesBandLimitedModel)
    }

    /// Snores found inside the demo night's two episodes.
    private func snoresInEpisodes(_ events: [Event]) throws -> Int {
        let episodes = try Self.snoringEpisodes()
        XCTAssertEqual(episodes.count, 2)
        return events.filter { event in
            let start = event.interval.start.timeIntervalSince(EventTestSignals.origin)
            return event.type == .snoring && episodes.contains { start >= $0.start_s - 1 && start <= $0.end_s + 1 }
        }.count
    }

    func test_bundledBandLimitedModel_loads_withTheFullBandModelsOutputsAndWindows() throws {
        let full = try EventClassifierModel.bundled()
        let narrow = try EventClassifierModel.bundledBandLimited()
        XCTAssertEqual(narrow.outputNames, full.outputNames)
        XCTAssertEqual(narrow.windowFrames, full.windowFrames)
        XCTAssertEqual(narrow.windowHopFrames, full.windowHopFrames)
        XCTAssertTrue(narrow.detectableTypes.isSuperset(of: [.snoring, .talking, .coughing]))
    }

    func test_fullBandNight_keepsTheFullBandModel_andFindsTheSameEvents() throws {
        let night = try Self.demoNight()
        let alone = try detect(night, bandLimitedModel: nil)
        let paired = try detect(night, bandLimitedModel: try EventClassifierModel.bundledBandLimited())
        XCTAssertFalse(paired.switched)
        XCTAssertEqual(paired.events.map(\.type), alone.events.map(\.type))
        XCTAssertEqual(paired.events.map(\.interval), alone.events.map(\.interval))
    }

    func test_nightLowPassedAt4kHz_switchesToTheBandLimitedModel_andFindsTheSnoringTheFullBandModelMisses() throws {
        let narrow = try EventBandLimit.lowPass4kHz.apply(to: try Self.demoNight())
        let fullBandOnly = try snoresInEpisodes(try detect(narrow, bandLimitedModel: nil).events)
        let paired = try detect(narrow, bandLimitedModel: try EventClassifierModel.bundledBandLimited())
        XCTAssertTrue(paired.switched)
        let found = try snoresInEpisodes(paired.events)
        print("demo night low-passed at 4 kHz: snores in the episodes \(found) (full-band model alone \(fullBandOnly))")
        // Each episode holds about 39 snores.
        XCTAssertGreaterThanOrEqual(found, 50)
        XCTAssertGreaterThan(found, fullBandOnly)
    }

    func test_nightThrough8kHz_switchesToTheBandLimitedModel_andFindsBothSnoringEpisodes() throws {
        let narrow = try EventBandLimit.resampled8kHz.apply(to: try Self.demoNight())
        let paired = try detect(narrow, bandLimitedModel: try EventClassifierModel.bundledBandLimited())
        XCTAssertTrue(paired.switched)
        XCTAssertGreaterThanOrEqual(try snoresInEpisodes(paired.events), 50)
    }

    func test_adoptedChoice_runsTheBandLimitedModelFromTheFirstWindow_andALaterOneIsIgnored() throws {
        // A live session resumed after an interruption takes the journaled choice before its first batch.
        let narrow = try EventBandLimit.lowPass4kHz.apply(to: try Self.demoNight())
        let resumed = try EventDetector(
            model: try EventClassifierModel.bundled(), bandLimitedModel: try EventClassifierModel.bundledBandLimited(),
            enabledTypes: Set(EventType.allCases), sessionId: UUID())
        resumed.adoptModelChoice(bandLimited: true)
        XCTAssertTrue(resumed.usesBandLimitedModel)
        XCTAssertEqual(resumed.bandLimitedModelChoice, true)
        let events = try EventTestSignals.run(resumed, narrow).flatMap(\.ended)
        XCTAssertGreaterThanOrEqual(try snoresInEpisodes(events), 50)
        // Once chosen (here: full band, on full-band audio), a choice to adopt changes nothing.
        let decided = try EventDetector(
            model: try EventClassifierModel.bundled(), bandLimitedModel: try EventClassifierModel.bundledBandLimited(),
            enabledTypes: Set(EventType.allCases), sessionId: UUID())
        _ = try EventTestSignals.run(decided, try Self.demoNight())
        XCTAssertEqual(decided.bandLimitedModelChoice, false)
        decided.adoptModelChoice(bandLimited: true)
        XCTAssertFalse(decided.usesBandLimitedModel)
        XCTAssertEqual(decided.bandLimitedModelChoice, false)
    }

    func test_silence_leavesTheChoiceOpen_andKeepsTheFullBandModel() throws {
        let silence = [Float](repeating: 0, count: 16_000 * 20)
        let paired = try detect(silence, bandLimitedModel: try EventClassifierModel.bundledBandLimited())
        XCTAssertFalse(paired.switched)
        XCTAssertTrue(paired.events.isEmpty)
    }

    func test_bandLimitedModelWithOtherWindows_isRefused() throws {
        let full = try EventClassifierModel.bundled()
        var parts = try EventModelFileParts.bundledFirstNetwork()
        parts.header["windowHopFrames"] = full.windowHopFrames / 2
        let other = try EventClassifierModel(data: try parts.data(), name: "events-band-limited.bin")
        XCTAssertEqual(other.windowHopFrames, full.windowHopFrames / 2)
        XCTAssertThrowsError(
            try EventDetector(model: full, bandLimitedModel: other, enabledTypes: [.snoring], sessionId: UUID())
        ) {
            guard case .modelIntegrityCheckFailed(let why) = $0 as? SleepCycleSdkError else {
                return XCTFail("\($0)")
            }
            XCTAssertTrue(why.contains("events-band-limited"), why)
        }
    }
}

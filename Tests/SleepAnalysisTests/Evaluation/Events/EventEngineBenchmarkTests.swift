import Foundation
import SleepAnalysisEvaluation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The events benchmark (`sleepanalysis-bench events`) counts what it runs: every window once, and with the
/// shipped cascade the second network only on windows where the first hears something.
final class EventEngineBenchmarkTests: XCTestCase {
    func test_recording_isClassifiedWindowByWindow_andTheQuietRoomRarelyWakesTheSecondNetwork() throws {
        let model = try EventClassifierModel.bundled()
        XCTAssertNotNil(model.cascadeGate, "the shipped model is a cascade")
        let url = FixturePaths.fixtures.appendingPathComponent("clip_quiet_room.flac")
        let result = try EventEngineBenchmark.run(file: url, model: model)
        let reader = try AudioFileReader(url: url)
        XCTAssertEqual(result.audioSeconds, Double(reader.frameCount) / reader.sampleRate, accuracy: 0.01)
        // A window every 0.5 s once the first second is in, and perhaps one more over the end of the stream.
        let expected = Int(((result.audioSeconds - 1) / 0.5).rounded(.down)) + 1
        XCTAssertTrue((expected...(expected + 1)).contains(result.windowCount), "\(result.windowCount) windows")
        XCTAssertLessThanOrEqual(Double(result.windowsWithEveryMember), 0.1 * Double(result.windowCount))
        XCTAssertEqual(result.eventCount, 0, "\(result.eventCountByType)")
        XCTAssertGreaterThan(result.detectorSeconds, 0)
    }

    func test_syntheticBursts_wakeTheSecondNetworkOnSomeWindowsOnly_andBecomeEvents() throws {
        let result = try EventEngineBenchmark.run(hours: 0.02, model: try EventClassifierModel.bundled())
        XCTAssertEqual(result.audioSeconds, 72)
        XCTAssertGreaterThan(result.windowsWithEveryMember, 0)
        XCTAssertLessThan(result.windowsWithEveryMember, result.windowCount / 2)
        XCTAssertGreaterThan(result.eventCount, 0, "the bursts every 20 s are heard")
    }

    func test_missingRecording_isATypedError() {
        let url = URL(fileURLWithPath: "/nonexistent/night.flac")
        XCTAssertThrowsError(try EventEngineBenchmark.run(file: url, model: try EventClassifierModel.bundled())) {
            guard case SleepCycleSdkError.invalidInput = $0 else { return XCTFail("got \($0)") }
        }
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisEvaluation

final class StereoSceneEvaluationTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "stereo-scene")
    }

    override func tearDown() {
        directory.remove()
    }

    /// Six seconds of stereo: a burst near the primary microphone at 1–2 s and one near the secondary at 3.5–4.5 s
    /// (the far channel 40 samples later and at 0.4 of the amplitude), over quiet independent noise.
    private func writeScene() throws -> URL {
        let rate = AudioBatch.sampleRate
        var generator = SplitMix64(seed: 7)
        var interleaved = [Float](repeating: 0, count: 6 * rate * 2)
        for index in 0..<(6 * rate) {
            interleaved[2 * index] = 0.001 * generator.nextSigned()
            interleaved[2 * index + 1] = 0.001 * generator.nextSigned()
        }
        for (range, near) in [(rate..<(2 * rate), 0), ((7 * rate / 2)..<(9 * rate / 2), 1)] {
            for index in range {
                let sample = 0.3 * generator.nextSigned()
                interleaved[2 * index + near] += sample
                interleaved[2 * (index + 40) + (1 - near)] += 0.4 * sample
            }
        }
        let url = directory.url.appendingPathComponent("scene_000.wav")
        let writer = try AudioFileWriter(url: url, sampleRate: rate, channelCount: 2, format: .wav16)
        try writer.write(interleaved)
        try writer.close()
        return url
    }

    private func truth() -> StereoSceneTruth {
        let delay = 40.0 / Double(AudioBatch.sampleRate)
        let level = 20 * log10(1 / 0.4)
        return StereoSceneTruth(
            geometry: "bedside", microphoneSpacing: 1.5,
            events: [
                .init(
                    start: 1, end: 2, owner: .primary, type: .coughing, expectedDelay: delay,
                    expectedLevelDifference: level),
                .init(
                    start: 3.5, end: 4.5, owner: .secondary, type: .sneeze, expectedDelay: -delay,
                    expectedLevelDifference: -level),
            ])
    }

    func test_evaluate_assignsEachBurstToItsSleeper_andMeasuresTheDelay() throws {
        let outcomes = try StereoSceneEvaluation.evaluate(audio: try writeScene(), truth: truth(), config: .bedSideMics)
        XCTAssertEqual(outcomes.map(\.assignment), ["primary", "secondary"])
        XCTAssertEqual(outcomes.map(\.insideAmbiguityZone), [false, false])
        for outcome in outcomes {
            XCTAssertEqual(try XCTUnwrap(outcome.measuredDelay), outcome.expectedDelay, accuracy: 1.0 / 16_000)
        }
        let report = StereoAssignmentReport(outcomes: outcomes, preset: "bedSideMics", geometry: "bedside", scenes: 1)
        XCTAssertEqual(report.accuracyOutsideZone, 1)
        XCTAssertEqual(report.outsideZone, 2)
        XCTAssertEqual(report.confusion["primary"]?["primary"], 1)
        XCTAssertEqual(report.confusion["secondary"]?["secondary"], 1)
    }

    func test_evaluate_withNeitherResolution_countsAmbiguousEventsInsideTheZone_andUnassigned() throws {
        var config = ChannelSeparationConfig.bedSideMics
        config.ambiguityZone = 1
        config.ambiguityResolution = .neither
        let outcomes = try StereoSceneEvaluation.evaluate(audio: try writeScene(), truth: truth(), config: config)
        XCTAssertEqual(outcomes.map(\.assignment), ["neither", "neither"])
        let report = StereoAssignmentReport(outcomes: outcomes, preset: "custom", geometry: "bedside", scenes: 1)
        XCTAssertEqual(report.shareInsideZone, 1)
        XCTAssertEqual(report.outsideZone, 0)
        XCTAssertEqual(report.assigned, 0)
    }

    func test_evaluate_rejectsAMonoFile_withInvalidInput() throws {
        let url = directory.url.appendingPathComponent("scene_mono.wav")
        let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: 1, format: .wav16)
        try writer.write([Float](repeating: 0, count: 16_000))
        try writer.close()
        XCTAssertThrowsError(try StereoSceneEvaluation.evaluate(audio: url, truth: truth(), config: .bedSideMics)) {
            guard case .invalidInput = $0 as? SleepCycleSdkError else { return XCTFail("\($0)") }
        }
    }
}

import Foundation
import XCTest

@testable import SleepAnalysis

/// Cues measured late equal those measured at once, and both equal the streaming `StereoAnalyzer` on
/// non-overlapping frames with the energies summed plainly over each frame's part in its batch.
final class StereoCueFramesTests: XCTestCase {
    private let origin = Date(timeIntervalSinceReferenceDate: 5_000)
    private let frameLength = 1_024
    private let rate = AudioBatch.sampleRate

    /// Noise on both channels, the secondary a delayed, quieter copy plus noise of its own.
    private func pair(seconds: Double) -> (primary: [Float], secondary: [Float]) {
        var generator = SplitMix64(seed: 7)
        let count = Int(seconds * Double(rate))
        let source = (0..<count).map { _ in 0.2 * generator.nextSigned() }
        let secondary = (0..<count).map { index in
            0.5 * (index >= 12 ? source[index - 12] : 0) + 0.01 * generator.nextSigned()
        }
        return (source, secondary)
    }

    /// Batches of uneven lengths (frames straddle them), each starting where the previous ended.
    private func batches(_ pair: (primary: [Float], secondary: [Float])) -> [(AudioBatch, AudioBatch)] {
        let features = FeatureBlock(firstFrameIndex: 0, frameCount: 0, melBandCount: 0, logMel: [], dbSpl: [], dbfs: [])
        var result: [(AudioBatch, AudioBatch)] = []
        var first = 0
        var step = 0
        while first < pair.primary.count {
            let last = min(pair.primary.count, first + [16_000, 7_001, 16_000, 900][step % 4])
            let start = origin.addingTimeInterval(Double(first) / Double(rate))
            result.append(
                (
                    AudioBatch(
                        firstSampleIndex: Int64(first), startTime: start, samples: Array(pair.primary[first..<last]),
                        features: features),
                    AudioBatch(
                        firstSampleIndex: Int64(first), startTime: start,
                        samples: Array(pair.secondary[first..<last]), features: features)
                ))
            first = last
            step += 1
        }
        return result
    }

    private func frames() throws -> StereoCueFrames {
        try StereoCueFrames(sampleRate: Double(rate), frameLength: frameLength, maxDelaySeconds: 0.01)
    }

    func test_cues_measuredAtOnce_equalTheStreamingAnalyzer_andPlainEnergies() throws {
        let pair = pair(seconds: 5)
        let eager = try frames()
        var expected: [StereoCueFrames.Cue] = []
        let reference = try StereoAnalyzer(
            sampleRate: Double(rate), frameSize: frameLength, hopSize: frameLength, maxDelaySeconds: 0.01)
        for (primary, secondary) in batches(pair) {
            eager.add(primary: primary, secondary: secondary)
            eager.measure(from: .distantPast)
            for cue in try reference.process(primary: primary.samples, secondary: secondary.samples) {
                // The part of the frame inside this batch, in the batch's own indices.
                let end = Int(cue.frameIndex + 1) * frameLength - Int(primary.firstSampleIndex)
                let start = max(0, end - frameLength)
                func energy(_ samples: [Float]) -> Double {
                    var sum = 0.0
                    for value in samples[start..<end] { sum += Double(value) * Double(value) }
                    return sum
                }
                expected.append(
                    StereoCueFrames.Cue(
                        time: primary.startTime.addingTimeInterval(Double(start + end) / 2 / Double(rate)),
                        delay: cue.delaySeconds, confidence: cue.confidence, primaryEnergy: energy(primary.samples),
                        secondaryEnergy: energy(secondary.samples)))
            }
        }
        XCTAssertEqual(expected.count, 5 * rate / frameLength)
        XCTAssertEqual(eager.measured.count, expected.count)
        for (cue, reference) in zip(eager.measured, expected) {
            XCTAssertEqual(cue.time, reference.time)
            XCTAssertEqual(cue.delay, reference.delay)
            XCTAssertEqual(cue.confidence, reference.confidence)
            XCTAssertEqual(cue.primaryEnergy, reference.primaryEnergy)
            XCTAssertEqual(cue.secondaryEnergy, reference.secondaryEnergy)
        }
        // The secondary is the primary 12 samples later: the primary hears it first.
        XCTAssertEqual(try XCTUnwrap(eager.measured.first).delay, 12.0 / Double(rate), accuracy: 0.5 / Double(rate))
    }

    func test_cues_measuredLate_equalThoseMeasuredAtOnce_andDiscardedFramesAreNeverMeasured() throws {
        let pair = pair(seconds: 6)
        let eager = try frames()
        let lazy = try frames()
        for (index, (primary, secondary)) in batches(pair).enumerated() {
            eager.add(primary: primary, secondary: secondary)
            eager.measure(from: .distantPast)
            lazy.add(primary: primary, secondary: secondary)
            // Frames before 1 s are dropped; those from 1 s wait; from 2.5 s on they are measured after the batch
            // that completes them; those between 1 and 2.5 s are measured late, after everything else.
            lazy.discardUnmeasured(before: origin.addingTimeInterval(1))
            lazy.measure(from: origin.addingTimeInterval(2.5))
            if index == 4 { lazy.measure(from: origin.addingTimeInterval(1)) }
        }
        let late = eager.measured.filter { $0.time >= origin.addingTimeInterval(1) }
        XCTAssertEqual(lazy.measured.count, late.count)
        XCTAssertLessThan(lazy.measured.count, eager.measured.count)
        for (cue, reference) in zip(lazy.measured, late) {
            XCTAssertEqual(cue.time, reference.time)
            XCTAssertEqual(cue.delay, reference.delay)
            XCTAssertEqual(cue.confidence, reference.confidence)
            XCTAssertEqual(cue.primaryEnergy, reference.primaryEnergy)
            XCTAssertEqual(cue.secondaryEnergy, reference.secondaryEnergy)
        }
        lazy.forget(before: origin.addingTimeInterval(3))
        XCTAssertEqual(lazy.measured.first.map { $0.time >= origin.addingTimeInterval(3) }, true)
    }
}

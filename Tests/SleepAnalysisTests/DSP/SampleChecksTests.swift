import XCTest

@testable import SleepAnalysis

/// `DSPSampleChecks` (the vectorised C `sa_sample_range`, `sa_non_finite_count` and `sa_full_scale_plateau_count`)
/// against plain loops.
final class SampleChecksTests: XCTestCase {
    func testMatchesPlainLoopWithNaNAtEveryLength() {
        var generator = SplitMix64(seed: 3)
        for count in 0..<40 {
            var samples = (0..<count).map { _ in Float(Double(generator.next() % 20_001) / 10_000 - 1) }
            if count > 2 { samples[count / 2] = .nan }
            if count > 9 { samples[count - 1] = .nan }
            var low = Float.infinity
            var high = -Float.infinity
            for sample in samples where !sample.isNaN {
                low = min(low, sample)
                high = max(high, sample)
            }
            let range = DSPSampleChecks.range(samples[...])
            XCTAssertEqual(range.low, low, "low of \(count) samples")
            XCTAssertEqual(range.high, high, "high of \(count) samples")
        }
    }

    func testNoValueGivesAnEmptyRange() {
        for samples: [Float] in [[], [.nan], [Float](repeating: .nan, count: 19)] {
            let range = DSPSampleChecks.range(samples[...])
            XCTAssertFalse(range.high >= range.low, "\(samples.count) samples, all NaN")
        }
    }

    func testSliceOffsetsAreHonoured() {
        let samples: [Float] = [5, -5] + [Float](repeating: 0.25, count: 17) + [-0.5, 9]
        let range = DSPSampleChecks.range(samples[2..<20])
        XCTAssertEqual(range.low, -0.5)
        XCTAssertEqual(range.high, 0.25)
    }

    func testNonFiniteCountMatchesPlainLoopAtEveryLength() {
        var generator = SplitMix64(seed: 11)
        let specials: [Float] = [.nan, .infinity, -.infinity, -.nan, .signalingNaN]
        for count in 0..<70 {
            var samples = (0..<count).map { _ in Float(Double(generator.next() % 20_001) / 10_000 - 1) }
            for position in stride(from: count % 7, to: count, by: 9) {
                samples[position] = specials[position % specials.count]
            }
            if count > 3 { samples[1] = .greatestFiniteMagnitude }  // finite, whatever its size
            let expected = samples.filter { !$0.isFinite }.count
            XCTAssertEqual(DSPSampleChecks.nonFiniteCount(samples), expected, "\(count) samples")
        }
    }

    func testFullScalePlateauCountsMatchPlainLoopsPerChannelInAnySplitOfBlocks() {
        var generator = SplitMix64(seed: 17)
        for channels in 1...2 {
            // Noise with full-scale plateaus of one to five samples, some at -1; in stereo on one channel at a time.
            var samples = (0..<(2_000 * channels)).map { _ in Float(Double(generator.next() % 20_001) / 10_000 - 1) }
            for start in stride(from: 7, to: samples.count - 20, by: 97) {
                let value: Float = start % 2 == 0 ? 1 : -1
                let length = 1 + start % 5
                for frame in 0..<length { samples[start + frame * channels] = value }
            }
            samples[1] = 0.995  // above the level but not held: not a plateau
            var expected = [Int](repeating: 0, count: channels)
            for index in channels..<samples.count
            where samples[index] == samples[index - channels] && abs(samples[index]) >= ClippingMonitor.level {
                expected[index % channels] += 1
            }
            XCTAssertTrue(expected.allSatisfy { $0 > 10 }, "\(expected)")
            for blockFrames in [1, 3, 64, 999, 2_000] {
                var previous = [Float](repeating: .nan, count: channels)
                var counted = [Int](repeating: 0, count: channels)
                for start in stride(from: 0, to: samples.count, by: blockFrames * channels) {
                    let block = Array(samples[start..<min(samples.count, start + blockFrames * channels)])
                    DSPSampleChecks.fullScalePlateauCounts(
                        block, level: ClippingMonitor.level, previous: &previous, counts: &counted)
                }
                XCTAssertEqual(counted, expected, "\(channels) channel(s) in blocks of \(blockFrames) frames")
                XCTAssertEqual(previous, Array(samples.suffix(channels)))
            }
        }
        var none: [Float] = []
        var noCounts: [Int] = []
        DSPSampleChecks.fullScalePlateauCounts([1, 1, 1], level: 0.99, previous: &none, counts: &noCounts)
        XCTAssertEqual(noCounts, [])
    }

    func testBandEnergyMatchesDoubleExpSums() {
        var generator = SplitMix64(seed: 5)
        let bandCount = 64
        let frames = 37
        // Log energies as the front end gives them: from silence (ln 1e-10) to loud.
        let logMel = (0..<(frames * bandCount)).map { _ in Float(Double(generator.next() % 30_001) / 1_000 - 23) }
        for bands in [0..<64, 9..<41, 53..<62, 63..<64] {
            var expected = 0.0
            for frame in 0..<frames {
                for band in bands { expected += exp(Double(logMel[frame * bandCount + band])) }
            }
            let sum = DSPSampleChecks.bandEnergy(logMel, bandCount: bandCount, frames: frames, bands: bands)
            XCTAssertEqual(sum, expected, accuracy: expected * 1e-6, "bands \(bands)")
        }
        XCTAssertEqual(DSPSampleChecks.bandEnergy(logMel, bandCount: bandCount, frames: 0, bands: 0..<64), 0)
        XCTAssertEqual(
            DSPSampleChecks.bandEnergy([Float](repeating: -200, count: 64), bandCount: 64, frames: 1, bands: 0..<64), 0,
            accuracy: 1e-30)
    }
}

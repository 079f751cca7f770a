import XCTest

@testable import SleepAnalysis

/// `DSPSampleRange` (the vectorised C `sa_sample_range`) against a plain loop, NaN skipped.
final class SampleRangeTests: XCTestCase {
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
            let range = DSPSampleRange.of(samples[...])
            XCTAssertEqual(range.low, low, "low of \(count) samples")
            XCTAssertEqual(range.high, high, "high of \(count) samples")
        }
    }

    func testNoValueGivesAnEmptyRange() {
        for samples: [Float] in [[], [.nan], [Float](repeating: .nan, count: 19)] {
            let range = DSPSampleRange.of(samples[...])
            XCTAssertFalse(range.high >= range.low, "\(samples.count) samples, all NaN")
        }
    }

    func testSliceOffsetsAreHonoured() {
        let samples: [Float] = [5, -5] + [Float](repeating: 0.25, count: 17) + [-0.5, 9]
        let range = DSPSampleRange.of(samples[2..<20])
        XCTAssertEqual(range.low, -0.5)
        XCTAssertEqual(range.high, 0.25)
    }
}

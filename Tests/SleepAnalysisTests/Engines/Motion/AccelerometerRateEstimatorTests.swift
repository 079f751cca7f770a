import Foundation
import XCTest

@testable import SleepAnalysis

final class AccelerometerRateEstimatorTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Resting readings at the given offsets from `start`, in seconds.
    private func readings(at offsets: [Double]) -> [AccelerometerSample] {
        offsets.map { AccelerometerSample(timestamp: start.addingTimeInterval($0), x: 0, y: 0, z: 1) }
    }

    func test_rate_is_the_median_interval_once_enough_samples_came_and_every_sample_is_handed_back() throws {
        // Given: 10 Hz readings arriving in blocks of 30, one of them 25 ms late and one repeated.
        var offsets = (0..<90).map { Double($0) / 10 }
        offsets[20] += 0.025
        offsets[41] = offsets[40]
        let input = readings(at: offsets)
        var estimator = AccelerometerRateEstimator()

        // When
        let first = estimator.add(Array(input[0..<30]))
        let second = estimator.add(Array(input[30..<60]))
        let third = try XCTUnwrap(estimator.add(Array(input[60..<90])))

        // Then: nothing before 64 samples; then 10 Hz, the odd intervals outvoted, and all 90 samples in order.
        XCTAssertNil(first)
        XCTAssertNil(second)
        XCTAssertEqual(third.rate, 10, accuracy: 1e-3)
        XCTAssertEqual(third.samples, input)
    }

    func test_a_short_input_gets_its_mean_rate_at_the_end_and_a_single_sample_the_fallback() throws {
        // Given: 20 readings 40 ms apart (25 Hz), never enough to estimate from.
        let input = readings(at: (0..<20).map { Double($0) * 0.04 })
        var short = AccelerometerRateEstimator()
        var single = AccelerometerRateEstimator()
        var none = AccelerometerRateEstimator()

        // When
        XCTAssertNil(short.add(input))
        XCTAssertNil(single.add(Array(input.prefix(1))))
        let shortEnd = try XCTUnwrap(short.finish())
        let singleEnd = try XCTUnwrap(single.finish())

        // Then
        XCTAssertEqual(shortEnd.rate, 25, accuracy: 1e-3)
        XCTAssertEqual(shortEnd.samples, input)
        XCTAssertEqual(singleEnd.rate, AccelerometerRateEstimator.fallbackRate)
        XCTAssertNil(none.finish())
        XCTAssertNil(short.finish(), "the samples were handed back once")
    }

    func test_the_counter_uses_the_estimated_rate_for_its_counts() throws {
        // Given: 2 minutes at 20 Hz with the rate left to the estimator.
        let input = readings(at: (0..<2_400).map { Double($0) / 20 })
        var counter = try ActivityCounter(sessionStart: start)

        // When
        counter.add(Array(input.prefix(63)))
        let before = counter.estimatedSampleRate
        counter.add(Array(input.dropFirst(63)))
        let counts = counter.finish()

        // Then: unknown until the 64th sample, then 20 Hz; every epoch with samples is counted.
        XCTAssertNil(before)
        XCTAssertEqual(try XCTUnwrap(counter.estimatedSampleRate), 20, accuracy: 1e-3)
        XCTAssertEqual(counts.count, 4)
    }
}

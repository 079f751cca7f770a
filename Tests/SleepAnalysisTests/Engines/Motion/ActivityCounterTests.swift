import Foundation
import SleepAnalysis
import XCTest

final class ActivityCounterTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// `seconds` of samples at `rate` Hz: gravity on z plus a 1.5 Hz wobble of `amplitude` g during `moving`.
    private func samples(
        seconds: Double, rate: Double, amplitude: Double, moving: (Double) -> Bool = { _ in true }
    ) -> [AccelerometerSample] {
        (0..<Int(seconds * rate)).map { index in
            let t = Double(index) / rate
            let wobble = moving(t) ? amplitude * sin(2 * Double.pi * 1.5 * t) : 0
            return AccelerometerSample(
                timestamp: start.addingTimeInterval(t), x: wobble, y: 0.3 * wobble, z: 1 + wobble)
        }
    }

    /// `seconds` at 50 Hz of a sleeper breathing (a 0.25 Hz rise and fall of 5 mg) with a 1.5 Hz wobble of 0.1 g
    /// during `moving`, all scaled by `scale`.
    private func night(seconds: Double, scale: Double, moving: (Double) -> Bool) -> [AccelerometerSample] {
        (0..<Int(seconds * 50)).map { index in
            let t = Double(index) / 50
            let motion = moving(t) ? 0.1 * sin(2 * Double.pi * 1.5 * t) : 0.005 * sin(2 * Double.pi * 0.25 * t)
            return AccelerometerSample(timestamp: start.addingTimeInterval(t), x: 0, y: 0, z: 1 + scale * motion)
        }
    }

    private func counts(_ input: [AccelerometerSample], rate: Double? = 50) throws -> [Double] {
        var counter = try ActivityCounter(sessionStart: start, sampleRate: rate)
        counter.add(input)
        return counter.finish().map(\.activityCount)
    }

    func test_counter_counts_motion_and_not_stillness() throws {
        // Given: a minute still, then a minute moving.
        let input = samples(seconds: 120, rate: 50, amplitude: 0.05, moving: { $0 >= 60 })

        // When
        let result = try counts(input)

        // Then: the first moving epoch is averaged with the still minute before it (causal smoothing).
        XCTAssertEqual(result.count, 4)
        XCTAssertLessThan(result[0], 1e-9)
        XCTAssertLessThan(result[1], 1e-9)
        XCTAssertGreaterThan(result[2], 30)
        XCTAssertGreaterThan(result[3], 50)
    }

    func test_counter_is_linear_in_amplitude_so_mattress_and_wrist_differ_by_scale_only() throws {
        // Given: the same night (breathing at rest, a movement every few epochs) at the wrist and, 20 times weaker,
        // through a mattress.
        let moving = { (t: Double) in [2, 5, 6, 11].contains(Int(t / 30)) && t.truncatingRemainder(dividingBy: 30) < 5 }
        let wrist = try counts(night(seconds: 420, scale: 1, moving: moving))
        let mattress = try counts(night(seconds: 420, scale: 0.05, moving: moving))

        // Then: every epoch's ratio is the amplitude ratio (the stager's per-night normalisation removes it).
        XCTAssertEqual(wrist.count, 14)
        XCTAssertGreaterThan(wrist.filter { $0 > 0 }.count, 4)
        for (a, b) in zip(wrist, mattress) {
            if a == 0 { XCTAssertEqual(b, 0) } else { XCTAssertEqual(b / a, 0.05, accuracy: 0.002) }
        }
    }

    func test_counter_gives_similar_counts_at_different_sample_rates() throws {
        // Given: the same motion at 25, 50 and 100 Hz, still for a minute then moving, rates estimated from the
        // timestamps.
        let moving = { (t: Double) in t >= 60 }
        let low = try counts(samples(seconds: 120, rate: 25, amplitude: 0.05, moving: moving), rate: nil)
        let mid = try counts(samples(seconds: 120, rate: 50, amplitude: 0.05, moving: moving), rate: nil)
        let high = try counts(samples(seconds: 120, rate: 100, amplitude: 0.05, moving: moving), rate: nil)

        // Then
        XCTAssertEqual(low[3] / mid[3], 1, accuracy: 0.1)
        XCTAssertEqual(high[3] / mid[3], 1, accuracy: 0.1)
    }

    func test_counter_closes_only_epochs_that_have_ended() throws {
        // Given
        var counter = try ActivityCounter(sessionStart: start, sampleRate: 50)
        counter.add(samples(seconds: 75, rate: 50, amplitude: 0.05))

        // When / Then: at 61 s, epochs 0 and 1 have ended; epoch 2 is open until 90 s.
        XCTAssertEqual(
            counter.closeEpochs(through: start.addingTimeInterval(61)).map(\.timestamp),
            [start, start.addingTimeInterval(30)])
        XCTAssertEqual(counter.closeEpochs(through: start.addingTimeInterval(61)), [])
        XCTAssertEqual(counter.finish().map(\.timestamp), [start.addingTimeInterval(60)])
    }

    func test_counter_rejects_a_non_positive_sample_rate() {
        XCTAssertThrowsError(try ActivityCounter(sessionStart: start, sampleRate: 0)) { error in
            guard case SleepCycleSdkError.invalidConfiguration = error else { return XCTFail("got \(error)") }
        }
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

final class AccelerometerMovementDetectorTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// A phone on the mattress at `rate` Hz: gravity, chest motion of `breathG` g at 14 breaths a minute, sensor
    /// noise of about `noiseG` g (standard deviation) on every axis, and `movement(t)` g added on z.
    private func trace(
        seconds: Double, rate: Double, breathG: Double = 0.0015, noiseG: Double = 0.0004, seed: UInt64 = 7,
        movement: (Double) -> Double = { _ in 0 }
    ) -> [AccelerometerSample] {
        var random = LinearCongruential(seed: seed)
        func gaussian() -> Double { (0..<12).reduce(0) { total, _ in total + random.next() } - 6 }
        return (0..<Int(seconds * rate)).map { index in
            let t = Double(index) / rate
            let chest = breathG * 0.5 * (1 - cos(2 * Double.pi * t * 14 / 60))
            return AccelerometerSample(
                timestamp: start.addingTimeInterval(t), x: 0.02 + noiseG * gaussian(),
                y: -0.03 + 0.4 * chest + noiseG * gaussian(), z: 1 + chest + movement(t) + noiseG * gaussian())
        }
    }

    private func movements(_ input: [AccelerometerSample], rate: Double? = nil) throws -> [Event] {
        var detector = try AccelerometerMovementDetector(sessionId: UUID(), sampleRate: rate)
        return detector.add(input) + detector.finish()
    }

    func test_movementDetector_reports_a_burst_and_nothing_while_still() throws {
        // Given: a still wrist (sensor noise of about 1 mg), with a 4-second movement at 30 s.
        var noise = LinearCongruential(seed: 3)
        let input = (0..<(60 * 50)).map { index -> AccelerometerSample in
            let t = Double(index) / 50
            let motion = (30..<34).contains(t) ? 0.2 * sin(2 * Double.pi * 2 * t) : 0
            return AccelerometerSample(
                timestamp: start.addingTimeInterval(t), x: 0, y: 0, z: 1 + motion + 0.002 * (noise.next() - 0.5))
        }

        // When
        let events = try movements(input)

        // Then
        XCTAssertEqual(events.count, 1)
        let event = try XCTUnwrap(events.first)
        XCTAssertEqual(event.type, .movement)
        XCTAssertEqual(event.source, .accelerometer)
        XCTAssertEqual(event.interval.start.timeIntervalSince(start), 30, accuracy: 1.5)
        // The band-pass filter rings down for a few seconds after the movement stops.
        XCTAssertGreaterThanOrEqual(event.interval.end.timeIntervalSince(start), 33)
        XCTAssertLessThanOrEqual(event.interval.end.timeIntervalSince(start), 40)
        XCTAssertGreaterThanOrEqual(event.probability, 0.5)
    }

    func test_movementDetector_staysSilent_throughTwoStillHours_atEitherRate() throws {
        // Breathing and sensor noise only: every second's level is noise, and none may pass for a movement.
        for rate in [10.0, 50.0] {
            for seed: UInt64 in [1, 2] {
                let events = try movements(trace(seconds: 7_200, rate: rate, seed: seed))
                XCTAssertEqual(
                    events.count, 0,
                    "\(rate) Hz, seed \(seed): movements at "
                        + "\(events.map { Int($0.interval.start.timeIntervalSince(start)) }) s")
            }
        }
    }

    func test_movementDetector_findsSmallMovements_amidBreathingAndNoise() throws {
        // Twitches of 10 mg for 2 s every 5 minutes through an hour: each one found, at its time.
        let onsets = stride(from: 150.0, to: 3_600, by: 300).map { $0 }
        let input = trace(seconds: 3_600, rate: 10) { t in
            onsets.contains { (0..<2).contains(t - $0) } ? 0.01 * sin(2 * Double.pi * 1.5 * t) : 0
        }
        let events = try movements(input)
        XCTAssertEqual(events.count, onsets.count, "\(events.map { $0.interval.start.timeIntervalSince(start) })")
        for (event, onset) in zip(events, onsets) {
            XCTAssertEqual(event.interval.start.timeIntervalSince(start), onset, accuracy: 1.5)
        }
    }

    func test_movementDetector_onTheDemoNight_findsItsFourMovementsAndNothingElse() throws {
        // The bundled night's accelerometer trace (phone on the mattress, 10 Hz): four bedding movements in its
        // truth file, breathing micro-motion and sensor noise everywhere else.
        let url = FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv")
        let reader = try AccelerometerCSVReader(url: url, startTime: start)
        var input: [AccelerometerSample] = []
        while let sample = try reader.next() { input.append(sample) }
        let events = try movements(input)
        let truth: [(start: Double, end: Double)] = [(60, 66), (420, 424), (1_250, 1_258), (1_560, 1_565)]
        XCTAssertEqual(events.count, truth.count, "\(events.map { $0.interval.start.timeIntervalSince(start) })")
        for (event, movement) in zip(events, truth) {
            XCTAssertEqual(event.interval.start.timeIntervalSince(start), movement.start, accuracy: 1.5)
            XCTAssertGreaterThan(event.probability, 0.9)
        }
    }
}

import Foundation
import XCTest

@testable import SleepAnalysis

/// A phone on the mattress feels breathing and sensor noise in every epoch; the stager must still see the sleeper
/// lying still, in real time as well as over the whole night.
final class PhoneOnMattressStagingTests: XCTestCase {
    func test_counter_counts_a_phone_on_the_mattress_at_rest_as_zero_and_movements_above_it() throws {
        // Given: 40 minutes at rest with a body movement at epochs 20 and 60.
        let counts = try PhoneOnMattress.counts(PhoneOnMattress.samples(epochs: 80, moving: [20, 60]))

        // Then: once the floor is known (5 minutes) and the smoothing has forgotten the raw start (5 more), every
        // epoch that is not within 5 minutes after a movement counts 0; a movement counts.
        XCTAssertEqual(counts.count, 80)
        let settled = (20..<80).filter { epoch in ![20, 60].contains { (0...10).contains(epoch - $0) } }
        for epoch in settled { XCTAssertEqual(counts[epoch], 0, "epoch \(epoch)") }
        XCTAssertGreaterThan(counts[20], 0)
        XCTAssertGreaterThan(counts[60], 0)
    }

    func test_stager_realTime_stages_a_phone_on_the_mattress_asleep_once_the_sleeper_lies_still() throws {
        // Given: 20 minutes awake (a movement every fourth epoch), then 70 minutes asleep (one every 16th).
        let awake = Set(stride(from: 1, to: 40, by: 4))
        let asleep = Set(stride(from: 47, to: 180, by: 16))
        let counts = try PhoneOnMattress.counts(PhoneOnMattress.samples(epochs: 180, moving: awake.union(asleep)))
        var stager = SleepStager(model: try StagingModel.bundled(), sessionStart: PhoneOnMattress.start)

        // When
        let realTime = counts.enumerated().map { index, count in
            stager.addEpoch(
                EpochFeatures(start: PhoneOnMattress.start.addingTimeInterval(Double(index) * 30), activityCount: count)
            )
        }

        // Then: from 20 minutes after the sleeper settled, most real-time epochs are sleep.
        let sleeping = realTime[80...].filter { $0.stage != .awake }.count
        XCTAssertGreaterThan(Double(sleeping) / Double(realTime[80...].count), 0.8)
    }
}

/// The dead band and smoothing belong to counts computed from raw accelerometer samples; a device's own counts (an
/// actigraph's, the Walch training counts' kind) reach the stager exactly as given.
final class DeviceActivityCountsTests: XCTestCase {
    func test_motion_engine_passes_device_counts_unchanged_even_with_a_noise_floor() throws {
        // Given: 40 minutes of device counts that never fall below 3 (a floor the accelerometer path would remove).
        let start = PhoneOnMattress.start
        let given: [Double] = (0..<80).map { index in
            let movement: Double = index % 13 == 0 ? 25 : 0
            return 3 + Double(index % 7) * 0.37 + movement
        }
        let motion = try AccelerometerMotionEngine(sessionId: UUID(), sessionStart: start, sampleRate: 10)
        motion.process(
            activityCounts: given.enumerated().map { index, count in
                ActivityCountSample(timestamp: start.addingTimeInterval(Double(index) * 30), activityCount: count)
            })

        // When
        let seen = given.indices.map { index in
            motion.activity(in: DateInterval(start: start.addingTimeInterval(Double(index) * 30), duration: 30))
        }

        // Then: bit for bit.
        XCTAssertEqual(seen, given.map { Optional($0) })
    }
}

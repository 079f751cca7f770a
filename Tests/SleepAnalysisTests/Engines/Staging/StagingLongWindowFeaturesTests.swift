import Foundation
import XCTest

@testable import SleepAnalysis

/// The wake-oriented long-window features on a night shaped like a wrist recording: readings every 5 s, quiet
/// sleep near 56 bpm with activity counts of 0.5, and a 6-minute awakening (epochs 100–111) with movement and a
/// faster, more variable heart rate.
final class StagingLongWindowFeaturesTests: XCTestCase {
    private static let epochCount = 200
    private static let wake = 100..<112

    /// Six readings per epoch (every 5 s), in time order.
    private static func readings(epoch: Int) -> [Double] {
        let awake = wake.contains(epoch)
        let level = awake ? 68.0 : 56 + 1.5 * sin(Double(epoch) / 9)
        let swing = awake ? 4.0 : 0.8
        return (0..<6).map { level + swing * (($0 + epoch).isMultiple(of: 2) ? 1 : -1) }
    }

    private static func night(upTo end: Int = epochCount) -> NightSeries {
        var night = NightSeries()
        for epoch in 0..<end {
            let awake = wake.contains(epoch)
            let activity = awake ? 120.0 + Double(epoch % 3) * 40 : 0.5
            let features = EpochFeatures(
                start: Date(timeIntervalSince1970: 1_700_000_000 + Double(epoch) * 30), activityCount: activity,
                heartRate: HeartRateEpochStats(bpm: readings(epoch: epoch)))
            night.append(features, hoursSinceStart: Double(epoch) / 120)
        }
        return night
    }

    private func value(
        _ name: String, _ context: StagingContext, at index: Int, night: NightSeries? = nil
    ) throws -> Double {
        let extractor = StagingFeatureExtractor(inputs: .activityAndHeartRate, context: context)
        let series = night ?? (context == .causal ? Self.night(upTo: index + 1) : Self.night())
        let position = try XCTUnwrap(extractor.featureNames.firstIndex(of: name), "no feature \(name)")
        return extractor.features(of: series, at: index)[position]
    }

    func test_successiveDifferenceRMS_of_readings_in_time_order() throws {
        let stats = try XCTUnwrap(HeartRateEpochStats(bpm: [60, 62, 61, 65, 300]))
        XCTAssertEqual(try XCTUnwrap(stats.successiveDifferenceRMS), (21.0 / 3).squareRoot(), accuracy: 1e-12)
        XCTAssertNil(HeartRateEpochStats(bpm: [58])?.successiveDifferenceRMS)
    }

    func test_every_variant_has_a_value_per_name() {
        let night = Self.night()
        for inputs in StagingInputs.allCases {
            for context in StagingContext.allCases {
                let extractor = StagingFeatureExtractor(inputs: inputs, context: context)
                XCTAssertEqual(extractor.features(of: night, at: 50).count, extractor.featureNames.count)
                XCTAssertEqual(Set(extractor.featureNames).count, extractor.featureNames.count)
            }
        }
    }

    func test_time_since_movement_counts_epochs_back_to_the_last_count_above_the_night_mean() throws {
        // Epoch 111 is the last of the awakening.
        XCTAssertEqual(try value("act_since_moved", .causal, at: 111), 0)
        XCTAssertEqual(try value("act_since_moved", .causal, at: 131), log1p(20), accuracy: 1e-12)
        XCTAssertEqual(try value("act_since_moved", .wholeNight, at: 131), log1p(20), accuracy: 1e-12)
        XCTAssertEqual(try value("act_until_moved", .wholeNight, at: 90), log1p(10), accuracy: 1e-12)
        // Before any movement, nothing within the horizon.
        XCTAssertEqual(try value("act_since_moved", .causal, at: 60), log1p(240), accuracy: 1e-12)
    }

    func test_centred_windows_see_the_awakening_coming_and_trailing_windows_do_not() throws {
        // Epoch 95 is 5 epochs before the awakening: a centred 20-epoch window (±10) reaches into it.
        XCTAssertGreaterThan(try value("act_centred_maxrank_20", .wholeNight, at: 95), 0.9)
        XCTAssertGreaterThan(try value("act_centred_mean_20", .wholeNight, at: 95), 0.5)
        XCTAssertLessThan(try value("act_past_maxrank_20", .causal, at: 95), 0.9)
        // 20 epochs after the awakening ended, the 80-epoch windows still hold it, the 20-epoch ones do not.
        XCTAssertGreaterThan(try value("act_past_maxrank_80", .causal, at: 131), 0.9)
        XCTAssertLessThan(try value("act_past_maxrank_20", .causal, at: 131), 0.9)
        XCTAssertLessThan(try value("act_centred_maxrank_20", .wholeNight, at: 131), 0.9)
    }

    func test_heart_rate_above_the_window_low_rises_in_the_awakening() throws {
        let awake = try value("hr_past_above_min_20", .causal, at: 105)
        let asleep = try value("hr_past_above_min_20", .causal, at: 90)
        XCTAssertGreaterThan(awake, 3)
        XCTAssertLessThan(asleep, 1.5)
        XCTAssertGreaterThan(try value("hr_centred_above_min_40", .wholeNight, at: 105), 3)
        XCTAssertGreaterThan(
            try value("hr_above_low_5pct", .wholeNight, at: 105), try value("hr_above_low_5pct", .wholeNight, at: 90))
    }

    func test_variability_of_readings_is_higher_in_the_awakening() throws {
        // Swings of ±4 bpm against ±0.8 bpm asleep: successive differences of 8 against 1.6 bpm, log ratio ≈ log 5.
        let awake = try value("hr_past_reading_rmssd_6", .causal, at: 108)
        let asleep = try value("hr_past_reading_rmssd_6", .causal, at: 80)
        XCTAssertEqual(awake - asleep, log(5), accuracy: 0.1)
        XCTAssertEqual(asleep, log(1.05), accuracy: 1e-9)  // the night's typical epoch; 0.05 keeps 0 finite
        XCTAssertGreaterThan(try value("hr_centred_reading_rmssd_10", .wholeNight, at: 97), asleep + 0.5)
    }
}

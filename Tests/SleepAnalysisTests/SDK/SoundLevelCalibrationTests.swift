import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `SleepAnalysisConfig.soundLevelCalibration` puts the levels listeners receive in the microphone's calibration
/// (dB SPL = dBFS + offset) and leaves the analysis itself as it is: the same recording analysed with and without
/// one gives levels exactly the offsets' difference apart and the same events.
final class SoundLevelCalibrationTests: SDKTestCase {
    func test_a_calibration_shifts_the_listeners_levels_by_its_offset_and_changes_nothing_else() async throws {
        _ = try await initializeSDK(features: .none)
        let audio = try writeNoiseFile(seconds: 150, sampleRate: 16_000)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        func analyse(_ calibration: LevelCalibration?) async throws -> (SoundLevelTimeline, AnalysisResult) {
            let source = SleepCycleSdk.createFileDataSource(audio: audio, accelerometer: nil, startTime: start)
            let collector = SoundLevelCollector(calibration: calibration)
            try await SleepCycleSdk.startAnalysis(
                config: SleepAnalysisConfig(soundLevelCalibration: calibration), using: source,
                eventListeners: [collector])
            await source.waitUntilFinished()
            // Every batch of the replay has reached the collector once its wait returns; the stop adds none.
            let timeline = collector.timeline
            let result = try await SleepCycleSdk.stopAnalysis()
            XCTAssertEqual(collector.timeline.minutes.map(\.frameCount), timeline.minutes.map(\.frameCount))
            return (timeline, result)
        }
        let (relative, plain) = try await analyse(nil)
        let (calibrated, shifted) = try await analyse(LevelCalibration(microphoneSensitivityDbfs: -6))  // +100 dB
        await SleepCycleSdk.deinitialize()

        XCTAssertNil(relative.calibration)
        XCTAssertEqual(calibrated.calibration?.offsetDb, 100)
        XCTAssertEqual(relative.minutes.count, 3, "2.5 minutes of audio over three clock minutes")
        XCTAssertEqual(relative.minutes.map(\.start), calibrated.minutes.map(\.start))
        // Every 10-ms frame of the 150 s, the last half minute's included.
        XCTAssertEqual(relative.minutes.map(\.frameCount), [6_000, 6_000, 3_000])
        for (standard, given) in zip(relative.minutes, calibrated.minutes) {
            XCTAssertEqual(given.frameCount, standard.frameCount)
            XCTAssertEqual(given.leq - standard.leq, -20, accuracy: 1e-3, "120 dB by default, 100 given")
        }
        XCTAssertEqual(
            plain.events.map { [$0.type.rawValue, "\($0.interval)"] },
            shifted.events.map { [$0.type.rawValue, "\($0.interval)"] }, "the same events")
        XCTAssertEqual(plain.breathingRates.map(\.bpm), shifted.breathingRates.map(\.bpm))
        XCTAssertEqual(plain.realTimeSleepStageIntervals.map(\.stage), shifted.realTimeSleepStageIntervals.map(\.stage))
    }

    func test_a_configuration_without_a_calibration_still_decodes_and_one_with_it_round_trips() throws {
        let old = try JSONDecoder().decode(
            SleepAnalysisConfig.self,
            from: Data(#"{"useAudio":true,"useAccelerometer":false,"useHeartRate":false}"#.utf8))
        XCTAssertNil(old.soundLevelCalibration)
        let config = SleepAnalysisConfig(soundLevelCalibration: LevelCalibration(offsetDb: 104.5))
        let decoded = try JSONDecoder().decode(SleepAnalysisConfig.self, from: JSONEncoder().encode(config))
        XCTAssertEqual(decoded, config)
    }
}

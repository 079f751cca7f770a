import Foundation
import XCTest

@testable import SleepAnalysis

final class SleepStagerTests: XCTestCase {
    private static let model: StagingModel? = try? StagingModel.bundled()

    private func bundledModel() throws -> StagingModel {
        try XCTUnwrap(Self.model, "the bundled staging model must load")
    }

    func test_stager_emits_one_prediction_per_epoch_with_probabilities_summing_to_one() throws {
        // Given
        var stager = SleepStager(model: try bundledModel(), sessionStart: SyntheticNight.start)
        let epochs = SyntheticNight.epochs(count: 200)

        // When
        let realTime = epochs.map { stager.addEpoch($0) }
        let whole = stager.wholeNight()

        // Then
        XCTAssertEqual(realTime.count, 200)
        XCTAssertEqual(whole.count, 200)
        for prediction in realTime + whole {
            let p = prediction.probabilities
            XCTAssertEqual(p.awake + p.light + p.deep + p.rem, 1, accuracy: 1e-9)
            XCTAssertEqual(prediction.stage, p.mostLikely)
            XCTAssertEqual(prediction.interval.duration, 30)
        }
        XCTAssertEqual(whole[10].interval.start, epochs[10].start)
    }

    func test_stager_realTime_outputs_do_not_change_when_later_epochs_arrive() throws {
        // Given: the same night, cut at 120 epochs and complete.
        let model = try bundledModel()
        let epochs = SyntheticNight.epochs(count: 260)
        var short = SleepStager(model: model, sessionStart: SyntheticNight.start)
        var full = SleepStager(model: model, sessionStart: SyntheticNight.start)

        // When
        let early = epochs.prefix(120).map { short.addEpoch($0) }
        let all = epochs.map { full.addEpoch($0) }

        // Then: every real-time prediction of the first 120 epochs is identical.
        XCTAssertEqual(Array(all.prefix(120)), early)
        XCTAssertEqual(full.realTimePredictions, all)
    }

    func test_stager_finds_wake_at_the_edges_and_sleep_in_the_middle_of_a_synthetic_night() throws {
        // Given
        var stager = SleepStager(model: try bundledModel(), sessionStart: SyntheticNight.start)
        SyntheticNight.epochs(count: 300).forEach { stager.addEpoch($0) }

        // When
        let whole = stager.wholeNight()

        // Then
        let middle = whole[100..<250].filter { $0.stage != .awake }.count
        XCTAssertGreaterThan(middle, 120, "most of the quiet middle should be sleep")
        XCTAssertGreaterThan(whole[0..<30].filter { $0.stage == .awake }.count, 15, "restless start should be wake")
    }

    func test_stager_gives_same_output_for_any_activity_scale() throws {
        // Given: a wrist device and a phone on the mattress seeing 20 times less motion.
        let model = try bundledModel()
        var wrist = SleepStager(model: model, sessionStart: SyntheticNight.start)
        var mattress = SleepStager(model: model, sessionStart: SyntheticNight.start)

        // When
        let wristOut = SyntheticNight.epochs(count: 150, activityScale: 1, heartRate: false).map { wrist.addEpoch($0) }
        let mattressOut = SyntheticNight.epochs(count: 150, activityScale: 0.05, heartRate: false)
            .map { mattress.addEpoch($0) }

        // Then
        XCTAssertEqual(wristOut.map(\.stage), mattressOut.map(\.stage))
        XCTAssertEqual(wrist.wholeNight().map(\.stage), mattress.wholeNight().map(\.stage))
        for (a, b) in zip(wristOut, mattressOut) {
            XCTAssertEqual(a.probabilities.awake, b.probabilities.awake, accuracy: 1e-9)
        }
    }

    func test_stager_fills_gaps_with_epochs_and_stages_without_any_sensor() throws {
        // Given: epochs 0, 1 and then 5 (a 2-minute gap), with no input at all.
        var stager = SleepStager(model: try bundledModel(), sessionStart: SyntheticNight.start)
        for index in [0, 1, 5] {
            stager.addEpoch(EpochFeatures(start: SyntheticNight.start.addingTimeInterval(Double(index) * 30)))
        }

        // When
        let whole = stager.wholeNight()

        // Then
        XCTAssertEqual(stager.epochCount, 6)
        let grid = (0..<6).map { SyntheticNight.start.addingTimeInterval(Double($0) * 30) }
        XCTAssertEqual(whole.map(\.interval.start), grid)
        XCTAssertEqual(stager.realTimePredictions.count, 6)
    }

    func test_stager_stages_audio_only_nights_from_movement_sounds() throws {
        // Given: no accelerometer or heart rate, only audio cues (movement sounds while awake, snoring asleep).
        var stager = SleepStager(model: try bundledModel(), sessionStart: SyntheticNight.start)
        var epochs = SyntheticNight.epochs(count: 240, heartRate: false, audio: true)
        for index in epochs.indices { epochs[index].activityCount = nil }

        // When
        epochs.forEach { stager.addEpoch($0) }
        let whole = stager.wholeNight()

        // Then: the restless start reads as wake and the snoring middle as sleep.
        XCTAssertGreaterThan(whole[0..<30].filter { $0.stage == .awake }.count, 15)
        XCTAssertGreaterThan(whole[100..<200].filter { $0.stage != .awake }.count, 70)
    }

    func test_a_silent_start_without_movement_sensors_is_awake_until_the_usual_sleep_onset() throws {
        // Given: an hour of quiet audio (no movement sounds, no snoring), and the same hour with a still accelerometer.
        let quiet = AudioEpochCues(snoringFraction: 0, movementSoundCount: 0, meanDbA: 30)
        let epochs = (0..<120).map {
            EpochFeatures(start: SyntheticNight.start.addingTimeInterval(Double($0) * 30), audio: quiet)
        }
        var soundOnly = SleepStager(model: try bundledModel(), sessionStart: SyntheticNight.start)
        var withAccelerometer = SleepStager(model: try bundledModel(), sessionStart: SyntheticNight.start)
        for epoch in epochs {
            soundOnly.addEpoch(epoch)
            var still = epoch
            still.activityCount = 0
            withAccelerometer.addEpoch(still)
        }

        // Then: sound only, the first 10 minutes are awake (nearly every Walch sleeper was still awake then) and
        // sleep comes within the hour, in real time and for the whole night.
        for (name, stages) in [
            ("real time", soundOnly.realTimePredictions.map(\.stage)),
            ("whole night", soundOnly.wholeNight().map(\.stage)),
        ] {
            XCTAssertEqual(stages[0..<20].filter { $0 == .awake }.count, 20, "\(name): \(stages)")
            XCTAssertGreaterThan(stages[60..<120].filter { $0 != .awake }.count, 50, "\(name): \(stages)")
        }
        // A measured still accelerometer is evidence of its own: the sleep-onset prior does not apply.
        let measured = withAccelerometer.wholeNight().map(\.stage)
        XCTAssertLessThan(measured[0..<20].filter { $0 == .awake }.count, 20, "\(measured)")
    }
}

final class StagingPipelineAdapterTests: XCTestCase {
    func test_adapters_stage_every_epoch_of_a_replayed_accelerometer_and_heart_rate_night() throws {
        // Given: 20 minutes at 10 Hz: restless for 5 minutes, then still; heart rate every 5 s.
        let start = SyntheticNight.start
        let motion = try AccelerometerMotionEngine(sessionId: UUID(), sessionStart: start, sampleRate: 10)
        let staging = PipelineSleepStager(model: try StagingModel.bundled(), sessionStart: start)
        var realTime: [SleepStagePrediction] = []
        var movements: [Event] = []
        var heartRates: [Double] = []

        // When: one second of data at a time; each epoch is staged as it closes.
        for second in 0..<1200 {
            let samples = (0..<10).map { index -> AccelerometerSample in
                let t = Double(second) + Double(index) / 10
                let wobble = second < 300 && second % 20 < 6 ? 0.3 * sin(2 * Double.pi * 1.2 * t) : 0
                return AccelerometerSample(timestamp: start.addingTimeInterval(t), x: wobble, y: 0, z: 1)
            }
            movements += motion.process(samples)
            if second % 5 == 0 { heartRates.append(second < 300 ? 75 : 58) }
            if (second + 1) % 30 == 0 {
                let interval = DateInterval(start: start.addingTimeInterval(Double(second - 29)), duration: 30)
                var observation = EpochObservation(interval: interval)
                observation.activity = motion.activity(in: interval)
                observation.heartRates = heartRates
                heartRates = []
                XCTAssertNotNil(observation.activity)
                realTime.append(staging.addEpoch(observation))
            }
        }
        movements += motion.finish()
        let whole = staging.wholeNight()

        // Then: 40 epochs staged in real time and for the whole night; movements seen in the restless part.
        XCTAssertEqual(realTime.count, 40)
        XCTAssertEqual(whole.count, 40)
        XCTAssertEqual(whole.map(\.interval.start), realTime.map(\.interval.start))
        XCTAssertFalse(movements.isEmpty)
        XCTAssertTrue(movements.allSatisfy { $0.source == .accelerometer && $0.interval.start < start + 310 })
    }

    func test_epochFeatures_from_an_observation_carry_audio_cues_only_with_audio() {
        // Given
        var observation = EpochObservation(interval: DateInterval(start: SyntheticNight.start, duration: 30))
        observation.heartRates = [60, 62]
        observation.snoringSeconds = 12
        observation.movementEventCount = 2

        // When
        let silent = EpochFeatures(observation: observation)
        observation.meanDbSpl = 33
        let heard = EpochFeatures(observation: observation)

        // Then
        XCTAssertNil(silent.audio)
        XCTAssertEqual(silent.heartRate?.meanBpm, 61)
        XCTAssertEqual(heard.audio?.snoringFraction, 0.4)
        XCTAssertEqual(heard.audio?.movementSoundCount, 2)
        XCTAssertEqual(heard.audio?.meanDbA, 33)
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

final class BreathingRateEstimatorTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func audioRates(
        _ samples: [Float], configuration: BreathingRateConfiguration = .init()
    ) throws
        -> [BreathingRate]
    {
        let estimator = try BreathingRateEstimator(sessionId: UUID(), configuration: configuration)
        var rates: [BreathingRate] = []
        for batch in try SyntheticSignals.batches(samples, start: start) { rates += estimator.process(batch) }
        return rates + estimator.finish()
    }

    private func breathNoise(bpm: Double, seconds: Double, seed: UInt64) -> [Float] {
        var signals = SyntheticSignals(seed: seed)
        var audio = signals.roomTone(seconds: seconds, rms: 0.001)
        signals.addBreaths(to: &audio, bpm: bpm, amplitude: 0.004)
        return audio
    }

    func test_breathingRate_within1bpm_for_12bpm_breath_noise_in_room_tone() throws {
        // Given two minutes of breath noise at 12 breaths/min in room tone
        let rates = try audioRates(breathNoise(bpm: 12, seconds: 120, seed: 1))
        // Then every 30 s from the first full minute there is an estimate within 1 bpm
        XCTAssertEqual(rates.map { $0.timestamp.timeIntervalSince(start) }, [60, 90, 120])
        for rate in rates {
            XCTAssertEqual(rate.bpm, 12, accuracy: 1)
            XCTAssertGreaterThan(rate.confidence, 0.3)
        }
    }

    func test_breathingRate_within1bpm_for_20bpm_breath_noise_in_room_tone() throws {
        let rates = try audioRates(breathNoise(bpm: 20, seconds: 90, seed: 2))
        XCTAssertEqual(rates.count, 2)
        for rate in rates { XCTAssertEqual(rate.bpm, 20, accuracy: 1) }
    }

    func test_breathingRate_restarts_its_window_after_a_gap_in_the_audio() throws {
        // Given 70 s of breathing, a 100-s gap, then 70 s more
        let estimator = try BreathingRateEstimator(sessionId: UUID())
        let first = try SyntheticSignals.batches(breathNoise(bpm: 12, seconds: 70, seed: 9), start: start)
        let second = try SyntheticSignals.batches(
            breathNoise(bpm: 18, seconds: 70, seed: 10), start: start.addingTimeInterval(170))
        var rates: [BreathingRate] = []
        for batch in first + second { rates += estimator.process(batch) }
        rates += estimator.finish()
        // Then no window mixes the two stretches: 60 s after each start, on the 30-s grid
        XCTAssertEqual(rates.map { $0.timestamp.timeIntervalSince(start) }, [60, 240])
        XCTAssertEqual(rates.first?.bpm ?? 0, 12, accuracy: 1)
        XCTAssertEqual(rates.last?.bpm ?? 0, 18, accuracy: 1)
    }

    func test_breathingRate_isAbsent_for_white_noise() throws {
        var signals = SyntheticSignals(seed: 3)
        let noise = (0..<(120 * 16_000)).map { _ in 0.01 * signals.uniform() }
        XCTAssertEqual(try audioRates(noise), [])
    }

    func test_breathingRate_isAbsent_for_digital_silence_and_room_tone() throws {
        XCTAssertEqual(try audioRates([Float](repeating: 0, count: 90 * 16_000)), [])
        var signals = SyntheticSignals(seed: 4)
        XCTAssertEqual(try audioRates(signals.roomTone(seconds: 120, rms: 0.001)), [])
    }

    func test_breathingRate_within1bpm_for_15bpm_accelerometer_micro_motion_with_a_movement() throws {
        // Given a phone on the mattress moving 1.5 mg with the chest at 15 breaths/min, and a movement burst
        var signals = SyntheticSignals(seed: 5)
        let readings = signals.accelerometer(seconds: 150, bpm: 15, amplitudeG: 0.0015, start: start, movementAt: 70)
        var configuration = BreathingRateConfiguration()
        configuration.useAudio = false
        configuration.useAccelerometer = true
        let estimator = try BreathingRateEstimator(sessionId: UUID(), configuration: configuration)
        // When the readings arrive in one-second chunks
        var rates: [BreathingRate] = []
        for chunk in stride(from: 0, to: readings.count, by: 20) {
            rates += estimator.process(accelerometer: Array(readings[chunk..<min(readings.count, chunk + 20)]))
        }
        rates += estimator.finish()
        // Then each window's estimate is within 1 bpm
        XCTAssertGreaterThanOrEqual(rates.count, 3)
        for rate in rates { XCTAssertEqual(rate.bpm, 15, accuracy: 1) }
    }

    func test_breathingRate_is_the_same_whether_input_arrives_at_once_or_in_pieces() throws {
        // Given three minutes of accelerometer readings and of audio
        var signals = SyntheticSignals(seed: 11)
        let readings = signals.accelerometer(seconds: 180, bpm: 10, amplitudeG: 0.0015, start: start)
        let audio = breathNoise(bpm: 22, seconds: 180, seed: 12)
        var motionOnly = BreathingRateConfiguration()
        motionOnly.useAudio = false
        motionOnly.useAccelerometer = true
        // When they arrive in one call, and a second at a time
        let bulkMotion = try BreathingRateEstimator(sessionId: UUID(), configuration: motionOnly)
        let bulkMotionRates = bulkMotion.process(accelerometer: readings) + bulkMotion.finish()
        let pieceMotion = try BreathingRateEstimator(sessionId: UUID(), configuration: motionOnly)
        var pieceMotionRates: [BreathingRate] = []
        for chunk in stride(from: 0, to: readings.count, by: 20) {
            pieceMotionRates += pieceMotion.process(accelerometer: Array(readings[chunk..<(chunk + 20)]))
        }
        pieceMotionRates += pieceMotion.finish()
        let bulkAudio = try BreathingRateEstimator(sessionId: UUID())
        let wholeAudio = AudioBatch(
            firstSampleIndex: 0, startTime: start, samples: audio, features: try FrontEnd().process(audio))
        let bulkAudioRates = bulkAudio.process(wholeAudio) + bulkAudio.finish()
        let pieceAudioRates = try audioRates(audio)
        // Then every window is analysed either way, with the same result
        XCTAssertEqual(bulkMotionRates.map(\.timestamp), pieceMotionRates.map(\.timestamp))
        XCTAssertEqual(bulkMotionRates.map(\.bpm), pieceMotionRates.map(\.bpm))
        XCTAssertEqual(bulkMotionRates.count, 5)
        XCTAssertEqual(bulkAudioRates.map(\.bpm), pieceAudioRates.map(\.bpm))
        XCTAssertEqual(bulkAudioRates.count, 5)
        for rate in bulkMotionRates { XCTAssertEqual(rate.bpm, 10, accuracy: 1) }
        for rate in bulkAudioRates { XCTAssertEqual(rate.bpm, 22, accuracy: 1) }
    }

    func test_breathingRate_isAbsent_for_a_still_phone() throws {
        var signals = SyntheticSignals(seed: 6)
        let readings = signals.accelerometer(seconds: 120, bpm: 15, amplitudeG: 0, start: start)
        var configuration = BreathingRateConfiguration()
        configuration.useAudio = false
        configuration.useAccelerometer = true
        let estimator = try BreathingRateEstimator(sessionId: UUID(), configuration: configuration)
        XCTAssertEqual(estimator.process(accelerometer: readings) + estimator.finish(), [])
    }

    func test_breathingRate_fuses_audio_and_accelerometer_when_both_agree() throws {
        // Given audio and accelerometer of the same sleeper at 15 breaths/min
        let audio = breathNoise(bpm: 15, seconds: 90, seed: 7)
        var signals = SyntheticSignals(seed: 8)
        let readings = signals.accelerometer(seconds: 90, bpm: 15, amplitudeG: 0.0015, start: start)
        var configuration = BreathingRateConfiguration()
        configuration.useAccelerometer = true
        let estimator = try BreathingRateEstimator(sessionId: UUID(), configuration: configuration)
        // When both arrive second by second
        var rates: [BreathingRate] = []
        for (second, batch) in try SyntheticSignals.batches(audio, start: start).enumerated() {
            rates += estimator.process(accelerometer: Array(readings[(second * 20)..<((second + 1) * 20)]))
            rates += estimator.process(batch)
        }
        rates += estimator.finish()
        // Then one fused estimate per window, within 1 bpm, at least as confident as either sensor would be
        XCTAssertEqual(rates.map { $0.timestamp.timeIntervalSince(start) }, [60, 90])
        for rate in rates {
            XCTAssertEqual(rate.bpm, 15, accuracy: 1)
            XCTAssertGreaterThan(rate.confidence, 0.8)
        }
    }

    func test_fusion_trusts_accelerometer_when_audio_counts_inhale_and_exhale() {
        let fused = BreathingFusion.fuse(
            audio: ModalityEstimate(bpm: 24.4, confidence: 0.9),
            accelerometer: ModalityEstimate(bpm: 12.1, confidence: 0.5),
            tolerance: 0.15)
        XCTAssertEqual(fused?.bpm ?? 0, 12.1, accuracy: 1e-9)
        let agreeing = BreathingFusion.fuse(
            audio: ModalityEstimate(bpm: 12, confidence: 0.5),
            accelerometer: ModalityEstimate(bpm: 13, confidence: 0.5),
            tolerance: 0.15)
        XCTAssertEqual(agreeing?.bpm ?? 0, 12.5, accuracy: 1e-9)
        XCTAssertEqual(agreeing?.confidence ?? 0, 0.75, accuracy: 1e-9)
        XCTAssertNil(BreathingFusion.fuse(audio: nil, accelerometer: nil, tolerance: 0.15))
    }

    func test_configuration_rejects_a_window_too_short_for_the_slowest_rate() {
        var configuration = BreathingRateConfiguration()
        configuration.windowSeconds = 15
        XCTAssertThrowsError(try BreathingRateEstimator(sessionId: UUID(), configuration: configuration))
    }

    func test_breathingRate_within1_5bpm_on_paced_rrujo_recordings() throws {
        guard let data = FixturePaths.sharedData else {
            throw XCTSkip("rrujo paced-breathing recordings need ../shared/data")
        }
        let folder = data.appendingPathComponent("audio/breathing/rrujo")
        let cases: [(String, Double)] = [
            ("rrujo_2023022210002_10bpm.flac", 10), ("rrujo_2023022210352_18bpm.flac", 18),
            ("rrujo_2023022211002_8bpm.flac", 8), ("rrujo_2023022217141_12bpm.flac", 12),
            ("rrujo_2023022218451_12bpm.flac", 12),
            // Inhale and exhale alike every 1.5 s: the breath is the pair (was 8/min, a multiple of the half-cycle)
            ("rrujo_2023022217141_20bpm.flac", 20),
        ]
        for (name, truth) in cases {
            let rates = try BreathingAnalysis.analyze(audio: folder.appendingPathComponent(name))
            XCTAssertEqual(rates.count, 1, name)
            XCTAssertEqual(rates.first?.bpm ?? 0, truth, accuracy: 1.5, name)
        }
    }
}

final class BreathingNeighbourCheckTests: XCTestCase {
    func test_a_rate_half_the_neighbours_is_read_at_the_neighbours_rate_when_the_window_is_periodic_there() {
        let decision = BreathingRateEstimator.neighbourDecision(
            bpm: 7.6, recent: [15.2, 15.0, 14.8], minimumScore: 0.1
        ) { _ in (bpm: 15.1, score: 0.3) }
        XCTAssertEqual(decision, .replace(bpm: 15.1, score: 0.3))
    }

    func test_a_rate_a_factor_away_without_support_is_dropped_and_others_are_kept() {
        let none: (Double) -> (bpm: Double, score: Double)? = { _ in nil }
        let weak: (Double) -> (bpm: Double, score: Double)? = { _ in (bpm: 15, score: 0.05) }
        XCTAssertEqual(
            BreathingRateEstimator.neighbourDecision(bpm: 45, recent: [15, 15], minimumScore: 0.1, near: none), .drop)
        // Twice as fast is dropped even when the window is periodic at the old rate (two new breaths make that peak)
        let old: (Double) -> (bpm: Double, score: Double)? = { _ in (bpm: 15, score: 0.5) }
        XCTAssertEqual(
            BreathingRateEstimator.neighbourDecision(bpm: 30, recent: [15, 15], minimumScore: 0.1, near: old), .drop)
        XCTAssertEqual(
            BreathingRateEstimator.neighbourDecision(bpm: 5.1, recent: [15, 15], minimumScore: 0.1, near: weak), .drop)
        // Not a factor away (a real change of 30 %), too little history, or no history: kept
        XCTAssertEqual(
            BreathingRateEstimator.neighbourDecision(bpm: 19.5, recent: [15, 15], minimumScore: 0.1, near: none), .keep)
        XCTAssertEqual(
            BreathingRateEstimator.neighbourDecision(bpm: 30, recent: [15], minimumScore: 0.1, near: none), .keep)
    }
}

import Foundation
import SleepAnalysis
import XCTest

final class ResultConfidenceTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Epochs of 30 s, each with probability `p(index)` of light sleep and the rest awake.
    private func predictions(count: Int, light p: (Int) -> Double) -> [SleepStagePrediction] {
        (0..<count).map { index in
            let probabilities = SleepStageProbabilities(awake: 1 - p(index), rem: 0, light: p(index), deep: 0)
            return SleepStagePrediction(
                stage: probabilities.mostLikely,
                interval: DateInterval(start: start.addingTimeInterval(Double(index) * 30), duration: 30),
                probabilities: probabilities)
        }
    }

    func test_minutesRange_of_certain_epochs_is_a_point() {
        let range = ResultConfidence.minutesRange(
            of: [.light], in: predictions(count: 100) { $0 < 60 ? 1 : 0 }, reported: 30)
        XCTAssertEqual(range.lower, 30, accuracy: 1e-9)
        XCTAssertEqual(range.upper, 30, accuracy: 1e-9)
    }

    func test_minutesRange_of_coin_flips_follows_the_block_model() {
        // 200 epochs at p = 0.5: 10 blocks of 20, each adding (20 × 0.5 min × 0.5)² = 25 min² of variance;
        // expected 50 min, 90 % range 50 ± 1.6449 × √250
        let range = ResultConfidence.minutesRange(of: [.light], in: predictions(count: 200) { _ in 0.5 }, reported: nil)
        XCTAssertEqual(range.lower, 50 - 1.6449 * 250.0.squareRoot(), accuracy: 1e-6)
        XCTAssertEqual(range.upper, 50 + 1.6449 * 250.0.squareRoot(), accuracy: 1e-6)
    }

    func test_minutesRange_holds_the_reported_figure_and_stays_inside_the_night() {
        let range = ResultConfidence.minutesRange(
            of: [.light], in: predictions(count: 40) { _ in 0.9 }, reported: 20)
        XCTAssertLessThanOrEqual(range.lower, 18)
        XCTAssertEqual(range.upper, 20, accuracy: 1e-9)  // 40 epochs hold 20 minutes: the range cannot pass them
    }

    func test_result_without_stages_or_audio_has_no_confidence() {
        let result = AnalysisResult(sessionId: UUID(), startTime: start, endTime: start.addingTimeInterval(600))
        XCTAssertNil(result.confidence)
    }

    func test_breathing_coverage_counts_the_half_minute_windows_with_a_rate() {
        // 10 minutes: windows end at 1, 1.5, …, 10 min (19); 5 of them have a rate
        let rates = (0..<5).map {
            BreathingRate(
                timestamp: start.addingTimeInterval(60 + 30 * Double($0)), bpm: 14, confidence: 1,
                sessionId: UUID())
        }
        let result = AnalysisResult(
            sessionId: UUID(), startTime: start, endTime: start.addingTimeInterval(600), breathingRates: rates)
        XCTAssertEqual(try XCTUnwrap(result.confidence?.breathingCoverage), 5.0 / 19.0, accuracy: 1e-9)
        XCTAssertNil(result.confidence?.totalSleepMinutes)
    }

    /// A night of `SyntheticNight` epochs staged by the bundled (calibrated) model, with its statistics.
    private func stagedNight(_ epochs: [EpochFeatures]) throws -> AnalysisResult {
        var stager = SleepStager(model: try StagingModel.bundled(), sessionStart: SyntheticNight.start)
        for epoch in epochs { stager.addEpoch(epoch) }
        let predictions = stager.wholeNight()
        let session = DateInterval(start: SyntheticNight.start, duration: Double(epochs.count) * 30)
        return AnalysisResult(
            sessionId: UUID(), startTime: session.start, endTime: session.end, sleepStagePredictions: predictions,
            statistics: SleepStatisticsCalculator().statistics(predictions: predictions, session: session),
            stagingBasis: stager.basis.map(StagingBasis.init(mode:)))
    }

    func test_total_sleep_range_narrows_on_a_clean_night_and_widens_on_a_degraded_one() throws {
        // Given: one night with movement and heart rate throughout, and the same night with its middle six hours
        // degraded: the accelerometer and the heart-rate sensor read noise (a loose strap, a phone on a soft
        // mattress), so the inputs no longer follow the sleeper
        let clean = SyntheticNight.epochs(count: 960)
        var noise = LinearCongruential(seed: 3)
        let degraded = clean.enumerated().map { index, epoch in
            guard (120..<840).contains(index) else { return epoch }
            return EpochFeatures(
                start: epoch.start, activityCount: 25 * noise.next(),
                heartRate: HeartRateEpochStats(meanBpm: 55 + 20 * noise.next(), standardDeviation: 6, sampleCount: 6))
        }

        // When
        let cleanRange = try XCTUnwrap(try stagedNight(clean).confidence?.totalSleepMinutes)
        let degradedResult = try stagedNight(degraded)
        let degradedRange = try XCTUnwrap(degradedResult.confidence?.totalSleepMinutes)

        // Then: the degraded night's range is wider than the clean one's (its middle epochs are staged with
        // probabilities nearer even), and it holds the reported total sleep
        XCTAssertLessThan(cleanRange.width, 0.3 * 480, "\(cleanRange)")
        XCTAssertGreaterThan(degradedRange.width, 1.2 * cleanRange.width, "\(degradedRange) vs \(cleanRange)")
        let reported = try XCTUnwrap(degradedResult.statistics?.totalSleepDuration) / 60
        XCTAssertLessThanOrEqual(degradedRange.lower, reported)
        XCTAssertGreaterThanOrEqual(degradedRange.upper, reported)
        XCTAssertLessThan(
            try XCTUnwrap(degradedResult.confidence?.meanStageConfidence),
            try XCTUnwrap(try stagedNight(clean).confidence?.meanStageConfidence))
    }
}

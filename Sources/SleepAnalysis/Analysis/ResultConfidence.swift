import Foundation

/// How far to trust a night's figures: ranges for total sleep, efficiency and the time in each stage from the
/// calibrated stage probabilities, the share of the night with a breathing rate, and the inputs that staged it.
///
/// The ranges come from the whole-night probabilities, which are calibrated (temperature scaling fitted inside
/// the training folds; expected calibration error in the staging model card). For a stage, each epoch contributes
/// its probability of that stage; epochs within one `blockEpochs` block (10 minutes) are taken to be wrong
/// together and blocks independently, so a block adds the square of its summed standard deviations to the
/// variance. The range is the 90 % normal interval around the expected minutes, widened to hold the reported
/// figure (which counts the most probable stage of each epoch), and kept within the night. A night staged with
/// confident probabilities gets a narrow range; one staged from weak inputs (sound only, a broken sensor, gaps)
/// a wide one. How often the range holds the polysomnography's figure is measured leave-one-subject-out in the
/// staging model card; it is a statement about the model's probabilities, not a measurement error bar.
public struct ResultConfidence: Sendable, Hashable, Codable {
    /// A range of minutes (or of a share, for efficiency).
    public struct Range: Sendable, Hashable, Codable {
        /// Lower end.
        public var lower: Double
        /// Upper end.
        public var upper: Double

        /// Creates a range.
        ///
        /// - Parameters:
        ///   - lower: Lower end.
        ///   - upper: Upper end.
        public init(lower: Double, upper: Double) {
            self.lower = lower
            self.upper = upper
        }

        /// Its width (upper − lower).
        public var width: Double { upper - lower }
    }

    /// Minutes per stage.
    public struct StageRanges: Sendable, Hashable, Codable {
        /// Awake.
        public var awake: Range
        /// Light sleep.
        public var light: Range
        /// Deep sleep.
        public var deep: Range
        /// REM sleep.
        public var rem: Range
    }

    /// The coverage the ranges are computed for: 0.9.
    public static let level = 0.9
    /// Epochs taken to be wrong together: 20 (10 minutes).
    public static let blockEpochs = 20

    /// The coverage of the ranges (0.9).
    public var level: Double
    /// Total sleep, minutes; nil when the night was not staged.
    public var totalSleepMinutes: Range?
    /// Sleep efficiency (total sleep / time in bed, 0...1); nil when the night was not staged.
    public var sleepEfficiency: Range?
    /// Minutes in each stage; nil when the night was not staged.
    public var stageMinutes: StageRanges?
    /// The mean probability of each epoch's most probable stage (0.25...1): about the share of epochs staged right,
    /// if the probabilities are calibrated; nil when the night was not staged.
    public var meanStageConfidence: Double?
    /// The share of the night's 30-second breathing windows that got a rate (0...1); nil when breathing was not
    /// measured (no audio and no rate).
    public var breathingCoverage: Double?
    /// The inputs that staged the night and whether that mode is validated (as `AnalysisResult.stagingBasis`).
    public var stagingBasis: StagingBasis?

    /// Creates a confidence summary.
    ///
    /// - Parameters:
    ///   - totalSleepMinutes: Range of total sleep.
    ///   - sleepEfficiency: Range of efficiency.
    ///   - stageMinutes: Ranges per stage.
    ///   - meanStageConfidence: Mean top-stage probability.
    ///   - breathingCoverage: Share of breathing windows with a rate.
    ///   - stagingBasis: The staging basis.
    public init(
        totalSleepMinutes: Range?, sleepEfficiency: Range?, stageMinutes: StageRanges?, meanStageConfidence: Double?,
        breathingCoverage: Double?, stagingBasis: StagingBasis?
    ) {
        level = Self.level
        self.totalSleepMinutes = totalSleepMinutes
        self.sleepEfficiency = sleepEfficiency
        self.stageMinutes = stageMinutes
        self.meanStageConfidence = meanStageConfidence
        self.breathingCoverage = breathingCoverage
        self.stagingBasis = stagingBasis
    }

    /// The range of minutes spent in the stages `stages`, from per-epoch probabilities.
    ///
    /// - Parameters:
    ///   - predictions: The epochs, in time order, with their (calibrated) probabilities.
    ///   - stages: The stages counted (e.g. light, deep and REM for total sleep).
    ///   - reported: The reported minutes (widened to hold them); nil: the expected minutes alone.
    /// - Returns: The 90 % range in minutes, within 0 and the epochs' total length.
    public static func minutesRange(
        of stages: Set<SleepStage>, in predictions: [SleepStagePrediction], reported: Double?
    ) -> Range {
        let z = 1.6449  // the normal distribution's 95th percentile: a two-sided 90 % range
        var expected = 0.0, variance = 0.0, total = 0.0
        // Summed in one fixed order: a set's order differs between instances, and so would the last digits.
        let counted = SleepStage.allCases.filter(stages.contains)
        var start = 0
        while start < predictions.count {
            let block = predictions[start..<min(start + blockEpochs, predictions.count)]
            var deviation = 0.0
            for epoch in block {
                let minutes = epoch.interval.duration / 60
                let p = min(max(counted.reduce(0) { $0 + epoch.probabilities[$1] }, 0), 1)
                expected += minutes * p
                deviation += minutes * (p * (1 - p)).squareRoot()
                total += minutes
            }
            variance += deviation * deviation
            start += blockEpochs
        }
        let spread = z * variance.squareRoot()
        let low = min(expected, reported ?? expected) - spread
        let high = max(expected, reported ?? expected) + spread
        return Range(lower: min(max(low, 0), total), upper: min(max(high, 0), total))
    }
}

extension AnalysisResult {
    /// How far to trust this night's figures (`ResultConfidence`), derived from the whole-night predictions, the
    /// breathing rates and the staging basis; nil when the night has neither stages nor breathing.
    public var confidence: ResultConfidence? {
        let predictions = sleepStagePredictions.sorted { $0.interval.start < $1.interval.start }
        let breathing = breathingCoverage
        guard !predictions.isEmpty || breathing != nil else { return nil }
        guard !predictions.isEmpty else {
            return ResultConfidence(
                totalSleepMinutes: nil, sleepEfficiency: nil, stageMinutes: nil, meanStageConfidence: nil,
                breathingCoverage: breathing, stagingBasis: stagingBasis)
        }
        let sleepStages: Set<SleepStage> = [.light, .deep, .rem]
        let reportedSleep = statistics?.totalSleepDuration.map { $0 / 60 }
        let totalSleep = ResultConfidence.minutesRange(of: sleepStages, in: predictions, reported: reportedSleep)
        let timeInBed = (statistics?.timeInBed ?? endTime.timeIntervalSince(startTime)) / 60
        let efficiency =
            timeInBed > 0
            ? ResultConfidence.Range(
                lower: min(1, totalSleep.lower / timeInBed), upper: min(1, totalSleep.upper / timeInBed)) : nil
        func stage(_ stage: SleepStage) -> ResultConfidence.Range {
            ResultConfidence.minutesRange(
                of: [stage], in: predictions, reported: statistics?.sleepStageDurations?[stage].map { $0 / 60 })
        }
        let meanConfidence =
            predictions.reduce(0) { $0 + $1.probabilities[$1.stage] } / Double(predictions.count)
        return ResultConfidence(
            totalSleepMinutes: totalSleep, sleepEfficiency: efficiency,
            stageMinutes: ResultConfidence.StageRanges(
                awake: stage(.awake), light: stage(.light), deep: stage(.deep), rem: stage(.rem)),
            meanStageConfidence: meanConfidence, breathingCoverage: breathing, stagingBasis: stagingBasis)
    }

    /// The share of the night's 30-second breathing windows (the first ends a minute in) that got a rate; nil when
    /// no audio was analysed and no rate came.
    var breathingCoverage: Double? {
        guard audioStatistics != nil || !breathingRates.isEmpty else { return nil }
        let windows = Int(((endTime.timeIntervalSince(startTime) - 60) / 30).rounded(.down)) + 1
        guard windows > 0 else { return breathingRates.isEmpty ? nil : 1 }
        return min(1, Double(breathingRates.count) / Double(windows))
    }
}

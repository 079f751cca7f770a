import Foundation
import SleepAnalysis

/// Runs a staging model over labelled nights and scores it against the polysomnography, in real time
/// (causal predictions) and over the whole night. Epochs without a PSG score are not counted.
///
/// Beside agreement (kappa), it measures how well the published probabilities are calibrated (the expected
/// calibration error of the top-label confidence, and the reliability diagram's bins), and how much the pooled
/// figures depend on which subjects happened to be in the data: 95 % bootstrap intervals over subjects and the
/// spread of the per-subject figures.
package struct StagingEvaluation: Sendable, Codable {
    /// One subject's figures.
    package struct Subject: Sendable, Codable {
        /// The subject identifier.
        package var subject: String
        /// Whole-night figures.
        package var wholeNight: StagingMetrics
        /// Real-time figures.
        package var realTime: StagingMetrics
        /// Whole-night reliability counts.
        package var wholeNightReliability: ReliabilityTally
        /// Real-time reliability counts.
        package var realTimeReliability: ReliabilityTally
        /// Total sleep over the scored epochs: the polysomnography's, the whole-night stages', and the 90 % range
        /// `ResultConfidence` gives from the whole-night probabilities.
        package var totalSleep: TotalSleepCheck
    }

    /// One night's total sleep (minutes, scored epochs only) against its range.
    package struct TotalSleepCheck: Sendable, Codable {
        /// The polysomnography's total sleep.
        package var scored: Double
        /// The whole-night stages' total sleep.
        package var staged: Double
        /// The 90 % range.
        package var range: ResultConfidence.Range
        /// Whether the range holds the scored total.
        package var holdsScored: Bool { range.lower <= scored + 1e-9 && scored <= range.upper + 1e-9 }
    }

    /// Figures of one context that go beyond agreement.
    package struct ContextSummary: Sendable, Codable {
        /// Reliability counts of every scored epoch pooled (its `expectedCalibrationError` and `bins`).
        package var reliability: ReliabilityTally
        /// 95 % bootstrap interval over subjects of the pooled 4-class kappa.
        package var fourClassKappaInterval: BootstrapInterval?
        /// 95 % bootstrap interval over subjects of the pooled sleep/wake kappa.
        package var sleepWakeKappaInterval: BootstrapInterval?
        /// 95 % bootstrap interval over subjects of the pooled expected calibration error.
        package var expectedCalibrationErrorInterval: BootstrapInterval?
        /// The per-subject 4-class kappas: lowest, median, highest.
        package var fourClassKappaSpread: [Double]
    }

    /// The share of subjects whose scored total sleep lies in the whole-night 90 % range (`ResultConfidence`).
    package var totalSleepRangeCoverage: Double {
        subjects.isEmpty ? .nan : Double(subjects.filter(\.totalSleep.holdsScored).count) / Double(subjects.count)
    }

    /// The median width of the subjects' 90 % total-sleep ranges (minutes).
    package var totalSleepRangeMedianWidth: Double {
        let widths = subjects.map(\.totalSleep.range.width).sorted()
        return widths.isEmpty ? .nan : Self.median(widths)
    }

    /// The median of sorted, non-empty `values`.
    private static func median(_ values: [Double]) -> Double {
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }

    /// Whole-night figures, all epochs pooled.
    package var wholeNight: StagingMetrics
    /// Real-time (causal) figures, all epochs pooled.
    package var realTime: StagingMetrics
    /// Whole-night calibration, intervals and spread.
    package var wholeNightSummary: ContextSummary
    /// Real-time calibration, intervals and spread.
    package var realTimeSummary: ContextSummary
    /// Per-subject figures, in subject order.
    package var subjects: [Subject]

    /// Evaluates nights.
    ///
    /// - Parameters:
    ///   - nights: the labelled nights.
    ///   - model: the model for each subject (e.g. the bundled one, or a leave-one-subject-out model).
    /// - Throws: whatever `model` throws.
    package init(nights: [WalchNight], model: (String) throws -> StagingModel) rethrows {
        var pooledWhole: [(truth: SleepStage, predicted: SleepStage)] = []
        var pooledCausal: [(truth: SleepStage, predicted: SleepStage)] = []
        var groupsWhole: [Group] = []
        var groupsCausal: [Group] = []
        subjects = []
        for night in nights {
            let (whole, causal) = try Self.predict(night: night, model: model(night.subjectId))
            var pairsWhole: [(truth: SleepStage, predicted: SleepStage)] = []
            var pairsCausal: [(truth: SleepStage, predicted: SleepStage)] = []
            var tallyWhole = ReliabilityTally(), tallyCausal = ReliabilityTally()
            var scoredWhole: [SleepStagePrediction] = []
            var scoredSleepMinutes = 0.0
            for (index, code) in night.labels.enumerated() {
                guard let code, let truth = WalchNight.stage(fromPSG: code) else { continue }
                scoredWhole.append(whole[index])
                if truth != .awake { scoredSleepMinutes += whole[index].interval.duration / 60 }
                pairsWhole.append((truth, whole[index].stage))
                pairsCausal.append((truth, causal[index].stage))
                tallyWhole.add(
                    confidence: whole[index].probabilities[whole[index].stage], isCorrect: whole[index].stage == truth)
                tallyCausal.add(
                    confidence: causal[index].probabilities[causal[index].stage],
                    isCorrect: causal[index].stage == truth)
            }
            pooledWhole += pairsWhole
            pooledCausal += pairsCausal
            groupsWhole.append(Group(pairs: pairsWhole, tally: tallyWhole))
            groupsCausal.append(Group(pairs: pairsCausal, tally: tallyCausal))
            subjects.append(
                Subject(
                    subject: night.subjectId, wholeNight: StagingMetrics(pairs: pairsWhole),
                    realTime: StagingMetrics(pairs: pairsCausal), wholeNightReliability: tallyWhole,
                    realTimeReliability: tallyCausal,
                    totalSleep: Self.totalSleep(scoredWhole, scored: scoredSleepMinutes)))
        }
        wholeNight = StagingMetrics(pairs: pooledWhole)
        realTime = StagingMetrics(pairs: pooledCausal)
        wholeNightSummary = Self.summary(groupsWhole, kappas: subjects.map(\.wholeNight.fourClass.kappa))
        realTimeSummary = Self.summary(groupsCausal, kappas: subjects.map(\.realTime.fourClass.kappa))
    }

    /// Stages one night epoch by epoch, then as a whole.
    ///
    /// - Parameters:
    ///   - night: The night, with its epoch inputs.
    ///   - model: The staging model.
    /// - Returns: the whole-night and the real-time predictions, one per epoch of the night.
    package static func predict(
        night: WalchNight, model: StagingModel
    )
        -> (wholeNight: [SleepStagePrediction], realTime: [SleepStagePrediction])
    {
        var stager = SleepStager(model: model, sessionStart: night.sessionStart)
        for epoch in night.epochs { stager.addEpoch(epoch) }
        return (stager.wholeNight(), stager.realTimePredictions)
    }

    /// The total-sleep check of a night's scored epochs (whole night).
    private static func totalSleep(_ predictions: [SleepStagePrediction], scored: Double) -> TotalSleepCheck {
        let staged = predictions.filter { $0.stage != .awake }.reduce(0) { $0 + $1.interval.duration / 60 }
        let range = ResultConfidence.minutesRange(of: [.light, .deep, .rem], in: predictions, reported: staged)
        return TotalSleepCheck(scored: scored, staged: staged, range: range)
    }

    /// One subject's additive tallies: confusion matrices (4 classes, sleep/wake) and reliability counts.
    private struct Group {
        var four: [[Int]]
        var two: [[Int]]
        var tally: ReliabilityTally

        init(pairs: [(truth: SleepStage, predicted: SleepStage)], tally: ReliabilityTally) {
            let order = StagingModel.stageOrder
            let index: (SleepStage) -> Int = { order.firstIndex(of: $0) ?? 0 }
            four = StagingMetrics.confusion(pairs.map { (index($0.truth), index($0.predicted)) }, classes: 4)
            two = StagingMetrics.confusion(
                pairs.map { ($0.truth == .awake ? 0 : 1, $0.predicted == .awake ? 0 : 1) }, classes: 2)
            self.tally = tally
        }
    }

    private static func summary(_ groups: [Group], kappas: [Double]) -> ContextSummary {
        func pooled(_ sample: [Group], _ matrix: (Group) -> [[Int]]) -> [[Int]] {
            var sum = matrix(sample[0]).map { $0.map { _ in 0 } }
            for group in sample {
                for (row, values) in matrix(group).enumerated() {
                    for (column, value) in values.enumerated() { sum[row][column] += value }
                }
            }
            return sum
        }
        var reliability = ReliabilityTally()
        for group in groups { reliability.add(group.tally) }
        let finite = kappas.filter(\.isFinite).sorted()
        let spread = finite.isEmpty ? [] : [finite[0], median(finite), finite[finite.count - 1]]
        return ContextSummary(
            reliability: reliability,
            fourClassKappaInterval: SubjectBootstrap.interval(groups: groups) {
                StagingMetrics.kappa(pooled($0, \.four))
            },
            sleepWakeKappaInterval: SubjectBootstrap.interval(groups: groups) {
                StagingMetrics.kappa(pooled($0, \.two))
            },
            expectedCalibrationErrorInterval: SubjectBootstrap.interval(groups: groups) { sample in
                var tally = ReliabilityTally()
                for group in sample { tally.add(group.tally) }
                return tally.expectedCalibrationError
            },
            fourClassKappaSpread: spread)
    }
}

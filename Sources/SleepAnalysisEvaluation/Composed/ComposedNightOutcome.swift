import Foundation
import SleepAnalysis

/// How one staging mode did on one composed night: agreement with the hypnogram the night was composed from,
/// and the architecture facts the sound modes must respect.
package struct ComposedNightOutcome: Sendable, Codable {
    /// The figures of one context (whole night or real time).
    package struct Context: Sendable, Codable {
        /// Agreement with the scored epochs.
        package var metrics: StagingMetrics
        /// Whether deep sleep was staged within 15 minutes after the staged sleep onset.
        package var deepWithin15MinutesOfOnset: Bool
        /// Minutes from the staged sleep onset to the first staged deep sleep (nil: none staged).
        package var firstDeepMinutesAfterOnset: Double?
        /// The share of the composed snoring epochs staged asleep (nil without snoring).
        package var snoringStagedAsleep: Double?
        /// The share of the scored-awake epochs with a body movement that were staged awake (nil without any).
        package var movingWakeStagedAwake: Double?
    }

    /// The hypnogram's name.
    package var night: String
    /// The inputs the SDK says staged the night.
    package var stagingBasis: String?
    /// Minutes from the hypnogram's own sleep onset to its first deep sleep, within the composed excerpt (nil:
    /// none scored there): whether an early deep sleep in the staging is an error or the night's own.
    package var scoredFirstDeepMinutesAfterOnset: Double?
    /// Whether the result warned that the audio was band-limited (the events detector's band-limited model ran).
    package var bandLimitedAudio: Bool
    /// Whole-night figures.
    package var wholeNight: Context
    /// Real-time figures.
    package var realTime: Context
    /// The scored and staged epochs (whole night, real time), for pooling over nights.
    var pairs: (wholeNight: [StagePair], realTime: [StagePair]) = ([], [])

    /// A scored epoch and its staged stage.
    typealias StagePair = (truth: SleepStage, predicted: SleepStage)

    private enum CodingKeys: String, CodingKey {
        case night, stagingBasis, bandLimitedAudio, scoredFirstDeepMinutesAfterOnset, wholeNight, realTime
    }

    /// Scores a result.
    ///
    /// - Parameters:
    ///   - night: The hypnogram's name.
    ///   - plan: The composed night.
    ///   - result: The SDK's result for it.
    ///   - start: When the night began.
    package init(night: String, plan: ComposedNightPlan, result: AnalysisResult, start: Date) {
        self.night = night
        stagingBasis = result.stagingBasis?.mode.rawValue
        bandLimitedAudio = result.warnings.contains { $0.kind == .bandLimitedAudio }
        scoredFirstDeepMinutesAfterOnset = firstDeepSleepMinutesAfterOnset(plan.stages)
        let count = plan.stages.count
        func epoch(_ date: Date) -> Int { Int((date.timeIntervalSince(start) / 30).rounded(.down)) }
        var whole = [SleepStage?](repeating: nil, count: count)
        for prediction in result.sleepStagePredictions {
            let index = epoch(prediction.interval.start.addingTimeInterval(1))
            if whole.indices.contains(index) { whole[index] = prediction.stage }
        }
        var causal = [SleepStage?](repeating: nil, count: count)
        for interval in result.realTimeSleepStageIntervals {
            let first = max(0, epoch(interval.interval.start.addingTimeInterval(1)))
            let last = min(count, epoch(interval.interval.end.addingTimeInterval(29)))
            for index in first..<max(first, last) { causal[index] = interval.stage }
        }
        (wholeNight, pairs.wholeNight) = Self.context(plan: plan, predicted: whole)
        (realTime, pairs.realTime) = Self.context(plan: plan, predicted: causal)
    }

    private static func context(plan: ComposedNightPlan, predicted: [SleepStage?]) -> (Context, [StagePair]) {
        var pairs: [StagePair] = []
        for (truth, stage) in zip(plan.stages, predicted) {
            if let truth, let stage { pairs.append((truth, stage)) }
        }
        let firstDeep = firstDeepSleepMinutesAfterOnset(predicted)
        func share(_ epochs: [Int], _ accept: (SleepStage) -> Bool) -> Double? {
            let staged = epochs.compactMap { predicted.indices.contains($0) ? predicted[$0] : nil }
            return staged.isEmpty ? nil : Double(staged.filter(accept).count) / Double(staged.count)
        }
        let movingWake = plan.movementEpochs.filter { plan.stages.indices.contains($0) && plan.stages[$0] == .awake }
        let context = Context(
            metrics: StagingMetrics(pairs: pairs), deepWithin15MinutesOfOnset: firstDeep.map { $0 < 15 } ?? false,
            firstDeepMinutesAfterOnset: firstDeep,
            snoringStagedAsleep: share(plan.snoringEpochs.sorted()) { $0 != .awake },
            movingWakeStagedAwake: share(movingWake.sorted()) { $0 == .awake })
        return (context, pairs)
    }
}

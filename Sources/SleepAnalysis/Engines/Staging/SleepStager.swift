import Foundation

/// Stages a night epoch by epoch: a causal prediction as each 30-second epoch closes, and a whole-night pass
/// at the end.
///
/// For each epoch the stager picks the classifier matching the inputs seen within 20 epochs (10 minutes):
/// activity and heart rate, activity only, or heart rate only. Without either, audio movement sounds stand in
/// for activity counts (audio-only mode; not validated against polysomnography), and with no input at all the
/// clock prior (stage frequencies by time since the session began) is used. Snoring is evidence of sleep:
/// each 3 seconds of snoring in an epoch multiplies the probability of wake by `1 − snoringWakeSuppression`, so a
/// sustained snoring train outweighs a restless accelerometer while a lone snore-like sound does not. Without an
/// accelerometer, actigraphy or heart rate, before the first epoch staged asleep, the probability of wake is at
/// least the share of nights still awake that many minutes after lights-out (sleep-onset latency, Walch nights), so
/// a silent start is not taken for sleep. In every mode the sleep-architecture prior then reweighs light, deep and REM by the minutes asleep
/// so far (counted from earlier epochs only), so deep sleep and REM at the start of sleep need strong evidence
/// (`SleepArchitecturePrior`). Real time runs the stage-sequence model forward (a filter); the whole night runs forward–backward;
/// a model may switch the sequence model off for a context (then each epoch is decided from its classifier).
/// The published probabilities are the decision-weighted posterior, temperature-scaled by the model's calibration
/// for the context (`StagingCalibration`), so that an epoch given 0.8 is right about 8 times in 10 (measured
/// leave-one-subject-out, `Models/staging.md`); the most probable stage is the same with or without it.
///
/// Epochs are placed on a 30-second grid that starts at the first epoch; a gap is filled with empty epochs,
/// and an epoch at or before the last one is taken as the next.
package struct SleepStager: Sendable {
    /// The model.
    package let model: StagingModel
    /// When the session began (the origin of the time-since-start feature).
    package let sessionStart: Date
    /// The real-time predictions so far, one per epoch (gap epochs included).
    package private(set) var realTimePredictions: [SleepStagePrediction] = []

    private var gridStart: Date?
    private var night = NightSeries()
    private var audio: [AudioEpochCues?] = []
    private var hasActivity: [Bool] = []
    private var hasHeartRate: [Bool] = []
    /// Whether each epoch's activity is the count of movement sounds (no accelerometer or actigraphy).
    private var activityFromSound: [Bool] = []
    private var filtered: [Double]?
    /// Minutes asleep before the next epoch in real time (30 s for each earlier epoch decided asleep).
    private var causalMinutesAsleep = 0.0

    private static let availabilityWindow = 20

    /// Creates a stager for one session.
    ///
    /// - Parameters:
    ///   - model: the staging model (e.g. `StagingModel.bundled()`).
    ///   - sessionStart: when the session began.
    package init(model: StagingModel, sessionStart: Date) {
        self.model = model
        self.sessionStart = sessionStart
    }

    /// Number of epochs staged so far.
    package var epochCount: Int { night.count }

    /// Adds the epoch that just closed and returns its real-time (causal) prediction.
    ///
    /// - Parameter epoch: the epoch's inputs.
    /// - Returns: the prediction for the epoch, from it and earlier epochs only.
    @discardableResult
    package mutating func addEpoch(_ epoch: EpochFeatures) -> SleepStagePrediction {
        let origin = gridStart ?? epoch.start
        gridStart = origin
        let position = Int((epoch.start.timeIntervalSince(origin) / EpochFeatures.duration).rounded())
        while night.count < position {
            let start = origin.addingTimeInterval(Double(night.count) * EpochFeatures.duration)
            _ = append(EpochFeatures(start: start))
        }
        var placed = epoch
        placed.start = origin.addingTimeInterval(Double(night.count) * EpochFeatures.duration)
        return append(placed)
    }

    /// The inputs that staged most epochs so far (measured movement and heart rate where they were there, movement
    /// sounds standing in for movement otherwise, else the time of night); nil before any epoch.
    package var basis: StagingBasis.Mode? {
        guard night.count > 0 else { return nil }
        var counts: [StagingBasis.Mode: Int] = [:]
        for index in 0..<night.count {
            let measuredActivity = hasActivity[index] && !activityFromSound[index]
            let mode: StagingBasis.Mode =
                switch (measuredActivity, hasHeartRate[index], activityFromSound[index] || audio[index] != nil) {
                case (true, true, _): .activityAndHeartRate
                case (true, false, _): .activity
                case (false, true, true): .soundAndHeartRate
                case (false, true, false): .heartRate
                case (false, false, true): .soundOnly
                case (false, false, false): .timeOnly
                }
            counts[mode, default: 0] += 1
        }
        // Ties go to the first mode in declaration order, so the answer never depends on dictionary order.
        return StagingBasis.Mode.allCases.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }
    }

    /// The whole-night predictions: every epoch staged so far, using the entire night (forward–backward).
    ///
    /// - Returns: one prediction per epoch; probabilities sum to 1.
    package func wholeNight() -> [SleepStagePrediction] {
        var minutesAsleep = 0.0
        let emissions = (0..<night.count).map { index in
            let posterior = posterior(at: index, context: .wholeNight, minutesAsleep: minutesAsleep)
            minutesAsleep += minutesOfSleep(in: posterior, context: .wholeNight)
            return emission(posterior, context: .wholeNight)
        }
        let smoothing = model.sequenceSmoothing[.wholeNight] ?? true
        let posteriors = smoothing ? model.sequence.smoothed(emissions) : emissions.map(StageSequenceModel.normalised)
        return posteriors.enumerated().map { index, posterior in
            prediction(at: index, posterior: posterior, context: .wholeNight)
        }
    }

    // MARK: - Internals

    /// The seconds of snoring that lower the wake probability by `snoringWakeSuppression` once (about one snore).
    static let snoringEvidenceSeconds = 3.0

    private mutating func append(_ epoch: EpochFeatures) -> SleepStagePrediction {
        var series = epoch
        if series.activityCount == nil, let sounds = epoch.audio?.movementSoundCount {
            series.activityCount = Double(max(sounds, 0))
        }
        night.append(series, hoursSinceStart: epoch.start.timeIntervalSince(sessionStart) / 3600)
        audio.append(epoch.audio)
        hasActivity.append(series.activityCount != nil)
        activityFromSound.append(epoch.activityCount == nil && series.activityCount != nil)
        hasHeartRate.append(series.heartRate != nil)
        let index = night.count - 1
        let posterior = posterior(at: index, context: .causal, minutesAsleep: causalMinutesAsleep)
        causalMinutesAsleep += minutesOfSleep(in: posterior, context: .causal)
        let current = emission(posterior, context: .causal)
        if model.sequenceSmoothing[.causal] ?? true {
            filtered = model.sequence.forwardStep(previous: filtered, emission: current)
        } else {
            filtered = StageSequenceModel.normalised(current)
        }
        let result = prediction(at: index, posterior: filtered ?? [], context: .causal)
        realTimePredictions.append(result)
        return result
    }

    /// The stage probabilities of epoch `index` before the sequence model: the matching classifier's posterior (or
    /// the clock prior), snoring's lowering of wake, and the sleep-architecture prior for `minutesAsleep`.
    private func posterior(at index: Int, context: StagingContext, minutesAsleep: Double) -> [Double] {
        let lower = max(0, index - Self.availabilityWindow)
        let upper = context == .causal ? index : min(night.count - 1, index + Self.availabilityWindow)
        let inputs = StagingInputs.matching(
            hasActivity: hasActivity[lower...upper].contains(true),
            hasHeartRate: hasHeartRate[lower...upper].contains(true))
        var posterior: [Double]
        if let inputs, let classifier = model.classifiers[StagingModelVariantKey(inputs: inputs, context: context)] {
            posterior = classifier.posterior(night: night, at: index)
        } else {
            posterior = model.clockPrior.probabilities(atHours: night.hoursSinceStart[index])
        }
        if minutesAsleep == 0, !measuredInputs(from: lower, through: upper),
            let stillAwake = model.architecture.stillAwakeShare(minutesSinceStart: night.hoursSinceStart[index] * 60),
            posterior[0] < stillAwake
        {
            posterior = Self.withWake(stillAwake, in: posterior)
        }
        if let snoring = audio[index]?.snoringFraction, snoring.isFinite {
            let seconds = min(max(snoring, 0), 1) * EpochFeatures.duration
            posterior[0] *= pow(1 - model.snoringWakeSuppression, seconds / Self.snoringEvidenceSeconds)
            posterior = StageSequenceModel.normalised(posterior)
        }
        return model.architecture.apply(to: posterior, minutesAsleep: minutesAsleep)
    }

    /// Whether an accelerometer, actigraphy or heart rate measured any epoch in `lower...upper` (movement sounds
    /// standing in for activity do not count).
    private func measuredInputs(from lower: Int, through upper: Int) -> Bool {
        (lower...upper).contains { (hasActivity[$0] && !activityFromSound[$0]) || hasHeartRate[$0] }
    }

    /// `posterior` with the probability of wake raised to `wake` and the sleep stages scaled to share the rest.
    private static func withWake(_ wake: Double, in posterior: [Double]) -> [Double] {
        let sleep = posterior[1...3].reduce(0, +)
        let scale = sleep > 0 ? (1 - wake) / sleep : 0
        return [wake] + posterior[1...3].map { sleep > 0 ? $0 * scale : (1 - wake) / 3 }
    }

    /// The emission likelihood of a posterior: the posterior over the class prior (the posterior itself when the
    /// context runs without the sequence model).
    private func emission(_ posterior: [Double], context: StagingContext) -> [Double] {
        guard model.sequenceSmoothing[context] ?? true else { return posterior }
        return model.sequence.emission(posterior, priorExponent: model.emissionPriorExponents[context] ?? 1)
    }

    /// The minutes of sleep an epoch adds: its 30 seconds when its most probable stage after the decision weights
    /// is a sleep stage (as the stager would decide it alone), else none.
    private func minutesOfSleep(in posterior: [Double], context: StagingContext) -> Double {
        let weights = model.decisionWeights[context] ?? [1, 1, 1, 1]
        let weighted = zip(posterior, weights).map { $0 * $1 }
        let asleep = weighted[1...3].contains { $0 > weighted[0] }
        return asleep ? EpochFeatures.duration / 60 : 0
    }

    private func prediction(at index: Int, posterior: [Double], context: StagingContext) -> SleepStagePrediction {
        let weights = model.decisionWeights[context] ?? [1, 1, 1, 1]
        let weighted = StageSequenceModel.normalised(zip(posterior, weights).map { max($0 * $1, 0) })
        let calibrated = StagingCalibration.tempered(weighted, temperature: model.temperatures[context] ?? 1)
        let probabilities = SleepStageProbabilities(
            awake: calibrated[0], rem: calibrated[3], light: calibrated[1], deep: calibrated[2])
        let start = (gridStart ?? sessionStart).addingTimeInterval(Double(index) * EpochFeatures.duration)
        return SleepStagePrediction(
            stage: probabilities.mostLikely, interval: DateInterval(start: start, duration: EpochFeatures.duration),
            probabilities: probabilities)
    }
}

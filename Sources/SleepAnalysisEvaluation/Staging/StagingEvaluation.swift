import Foundation
import SleepAnalysis

/// Runs a staging model over labelled nights and scores it against the polysomnography, in real time
/// (causal predictions) and over the whole night. Epochs without a PSG score are not counted.
package struct StagingEvaluation: Sendable, Codable {
    /// One subject's figures.
    package struct Subject: Sendable, Codable {
        /// The subject identifier.
        package var subject: String
        /// Whole-night figures.
        package var wholeNight: StagingMetrics
        /// Real-time figures.
        package var realTime: StagingMetrics
    }

    /// Whole-night figures, all epochs pooled.
    package var wholeNight: StagingMetrics
    /// Real-time (causal) figures, all epochs pooled.
    package var realTime: StagingMetrics
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
        subjects = []
        for night in nights {
            let (whole, causal) = try Self.predict(night: night, model: model(night.subjectId))
            var pairsWhole: [(truth: SleepStage, predicted: SleepStage)] = []
            var pairsCausal: [(truth: SleepStage, predicted: SleepStage)] = []
            for (index, code) in night.labels.enumerated() {
                guard let code, let truth = WalchNight.stage(fromPSG: code) else { continue }
                pairsWhole.append((truth, whole[index].stage))
                pairsCausal.append((truth, causal[index].stage))
            }
            pooledWhole += pairsWhole
            pooledCausal += pairsCausal
            subjects.append(
                Subject(
                    subject: night.subjectId, wholeNight: StagingMetrics(pairs: pairsWhole),
                    realTime: StagingMetrics(pairs: pairsCausal)))
        }
        wholeNight = StagingMetrics(pairs: pooledWhole)
        realTime = StagingMetrics(pairs: pooledCausal)
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
}

import Foundation
import SleepAnalysis

/// The model inputs the library computes for labelled nights, as a CSV table for training
/// (`Tools/staging/train.py` reads it; `sleepanalysis features staging` writes it).
///
/// Columns: `subject`, `epoch` (index in the night), `psg` (0–5, -1 where not scored), then every feature of
/// the activity-and-heart-rate extractor in the causal context (prefixed `causal.`) and in the whole-night
/// context (prefixed `whole.`). The activity-only and heart-rate-only variants read subsets of these columns:
/// activity features never depend on heart rate and vice versa.
package enum StagingFeatureTable {
    /// The CSV header line (without newline).
    package static var header: String {
        let causal = StagingFeatureExtractor(inputs: .activityAndHeartRate, context: .causal).featureNames
        let whole = StagingFeatureExtractor(inputs: .activityAndHeartRate, context: .wholeNight).featureNames
        return (["subject", "epoch", "psg"] + causal.map { "causal.\($0)" } + whole.map { "whole.\($0)" })
            .joined(separator: ",")
    }

    /// The CSV rows of one night (one per epoch, without header).
    ///
    /// - Parameter night: a labelled night.
    /// - Returns: the lines, without newlines.
    package static func rows(for night: WalchNight) -> [String] {
        let causal = StagingFeatureExtractor(inputs: .activityAndHeartRate, context: .causal)
        let whole = StagingFeatureExtractor(inputs: .activityAndHeartRate, context: .wholeNight)
        var series = NightSeries()
        var causalRows: [[Double]] = []
        for epoch in night.epochs {
            series.append(epoch, hoursSinceStart: epoch.start.timeIntervalSince(night.sessionStart) / 3600)
            causalRows.append(causal.features(of: series, at: series.count - 1))
        }
        return night.epochs.indices.map { index in
            let values = causalRows[index] + whole.features(of: series, at: index)
            let fields =
                [night.subjectId, String(index), String(night.labels[index] ?? -1)]
                + values.map { $0.isNaN ? "" : String($0) }
            return fields.joined(separator: ",")
        }
    }
}

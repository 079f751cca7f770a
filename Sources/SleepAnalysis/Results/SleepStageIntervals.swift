import Foundation

/// Turns per-epoch predictions into runs of one stage.
package enum SleepStageIntervals {
    /// Merges consecutive predictions of the same stage into intervals.
    ///
    /// Predictions are taken in time order; two epochs join only when they touch (within 1 ms), so a gap in
    /// the input starts a new interval.
    ///
    /// - Parameter predictions: per-epoch predictions.
    /// - Returns: the runs, in time order.
    package static func from(_ predictions: [SleepStagePrediction]) -> [SleepStageInterval] {
        var runs: [SleepStageInterval] = []
        for prediction in predictions.sorted(by: { $0.interval.start < $1.interval.start }) {
            if let last = runs.last, last.stage == prediction.stage,
                abs(prediction.interval.start.timeIntervalSince(last.interval.end)) < 0.001
            {
                runs[runs.count - 1].interval = DateInterval(start: last.interval.start, end: prediction.interval.end)
            } else {
                runs.append(SleepStageInterval(stage: prediction.stage, interval: prediction.interval))
            }
        }
        return runs
    }
}

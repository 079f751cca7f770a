import Foundation

/// When the smart alarm considers the sleeper ready to be woken inside the window.
///
/// The alarm fires `.optimalWakeUp` at the first tick inside the wake-up window where either
/// - a movement event happened since the previous tick (`movementTriggers`), or
/// - the latest real-time stage prediction is light sleep with a light-sleep probability of at least
///   `minimumLightProbability`, or is awake (`awakeTriggers`; someone already awake loses nothing by
///   being woken),
///
/// and the prediction is fresh: its epoch ended no more than `maximumPredictionAge` seconds before
/// the tick (a stale prediction, e.g. after the input stalled, says nothing about now).
/// Deep and REM sleep never fire it; the window's end fires `.windowEnd` whatever the stage.
struct SmartAlarmPolicy: Sendable, Hashable, Codable {
    /// The minimum probability of light sleep for a `.light` prediction to count, 0...1.
    var minimumLightProbability: Double
    /// Whether an `.awake` prediction fires the alarm.
    var awakeTriggers: Bool
    /// Whether a movement event inside the window fires the alarm.
    var movementTriggers: Bool
    /// The oldest a prediction may be (seconds from its epoch's end to the tick) to be used.
    var maximumPredictionAge: TimeInterval

    /// The policy the SDK uses: any `.light` or `.awake` prediction at most 90 s old, or movement.
    static let standard = SmartAlarmPolicy(
        minimumLightProbability: 0, awakeTriggers: true, movementTriggers: true, maximumPredictionAge: 90
    )

    /// Whether a prediction shows a stage from which waking is gentle, at time `now`.
    ///
    /// - Parameters:
    ///   - prediction: The latest real-time prediction, if any.
    ///   - now: The tick's time.
    /// - Returns: True for a fresh light prediction meeting the probability threshold, or a fresh awake one.
    func isWakeable(_ prediction: SleepStagePrediction?, at now: Date) -> Bool {
        guard let prediction, now.timeIntervalSince(prediction.interval.end) <= maximumPredictionAge else {
            return false
        }
        switch prediction.stage {
        case .light: return prediction.probabilities.light >= minimumLightProbability
        case .awake: return awakeTriggers
        case .deep, .rem: return false
        }
    }
}

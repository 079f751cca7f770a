import Foundation
import SleepAnalysis

/// Clip-level scores of the event detector on a labelled clip set (the `evaluate events` JSON).
package struct EventClipReport: Sendable, Codable, Equatable {
    /// Precision, recall, F1 and support of one event type.
    package struct ClassScore: Sendable, Codable, Equatable {
        /// Share of clips labelled with the type that truly are of it.
        package var precision: Double
        /// Share of the type's clips labelled with it.
        package var recall: Double
        /// Harmonic mean of precision and recall.
        package var f1: Double
        /// Clips of the type in the set.
        package var support: Int
    }

    /// Mean F1 over the event types present in the set.
    package var macroF1: Double
    /// Scores per event type present in the set (keys: `EventType` raw values).
    package var classes: [String: ClassScore]
    /// Counts of (true label -> predicted label); labels are type names or `none`.
    package var confusion: [String: [String: Int]]
    /// Clips scored.
    package var clips: Int

    /// The label used for "no event" (negatives, and clips where nothing was detected).
    package static let noneLabel = "none"

    /// Scores predicted labels against true labels.
    ///
    /// - Parameter pairs: (true label, predicted label) per clip: an `EventType` or nil for "no event".
    /// - Returns: The report over the event types that occur among the true labels.
    package static func score(_ pairs: [(truth: EventType?, predicted: EventType?)]) -> EventClipReport {
        let present = Set(pairs.compactMap(\.truth))
        var classes: [String: ClassScore] = [:]
        for type in present {
            let truePositives = pairs.filter { $0.truth == type && $0.predicted == type }.count
            let falsePositives = pairs.filter { $0.truth != type && $0.predicted == type }.count
            let support = pairs.filter { $0.truth == type }.count
            let precision =
                truePositives + falsePositives > 0
                ? Double(truePositives) / Double(truePositives + falsePositives) : 0
            let recall = support > 0 ? Double(truePositives) / Double(support) : 0
            let f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
            classes[type.rawValue] = ClassScore(precision: precision, recall: recall, f1: f1, support: support)
        }
        var confusion: [String: [String: Int]] = [:]
        for pair in pairs {
            let truth = pair.truth?.rawValue ?? noneLabel
            let predicted = pair.predicted?.rawValue ?? noneLabel
            confusion[truth, default: [:]][predicted, default: 0] += 1
        }
        // Summed in type-name order: a dictionary's order changes from run to run, and so would the last digit.
        let f1Sum = classes.keys.sorted().compactMap { classes[$0]?.f1 }.reduce(0, +)
        let macro = classes.isEmpty ? 0 : f1Sum / Double(classes.count)
        return EventClipReport(macroF1: macro, classes: classes, confusion: confusion, clips: pairs.count)
    }
}

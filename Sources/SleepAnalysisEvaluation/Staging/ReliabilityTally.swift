import Foundation

/// Counts for a reliability diagram and the expected calibration error of per-epoch stage probabilities.
///
/// Each epoch is put in one of `binCount` equal-width bins by its top-label confidence (the probability of its
/// most probable stage); a bin holds how many epochs it has, the sum of their confidences and how many of them
/// the most probable stage got right. The expected calibration error is the mean, weighted by epochs, of
/// |accuracy − mean confidence| over the bins. Tallies add, so subjects can be pooled or resampled.
package struct ReliabilityTally: Sendable, Hashable, Codable {
    /// One bin of the reliability diagram.
    package struct Bin: Sendable, Hashable, Codable {
        /// Lower edge of the bin's confidence range.
        package var lower: Double
        /// Upper edge of the bin's confidence range.
        package var upper: Double
        /// Epochs in the bin.
        package var epochs: Int
        /// Their mean confidence (NaN for an empty bin).
        package var meanConfidence: Double
        /// The share of them whose most probable stage was the scored one (NaN for an empty bin).
        package var accuracy: Double
    }

    /// Epochs per bin.
    package private(set) var epochs: [Int]
    /// Sum of the confidences per bin.
    package private(set) var confidenceSum: [Double]
    /// Correct epochs per bin.
    package private(set) var correct: [Int]

    /// An empty tally of `binCount` bins (10 by default).
    package init(binCount: Int = 10) {
        let count = max(binCount, 1)
        epochs = [Int](repeating: 0, count: count)
        confidenceSum = [Double](repeating: 0, count: count)
        correct = [Int](repeating: 0, count: count)
    }

    /// Adds one epoch: the probability of its most probable stage and whether that stage was the scored one.
    package mutating func add(confidence: Double, isCorrect: Bool) {
        guard confidence.isFinite else { return }
        let clamped = min(max(confidence, 0), 1)
        let bin = min(Int(clamped * Double(epochs.count)), epochs.count - 1)
        epochs[bin] += 1
        confidenceSum[bin] += clamped
        if isCorrect { correct[bin] += 1 }
    }

    /// Adds another tally of the same bins.
    package mutating func add(_ other: ReliabilityTally) {
        for bin in epochs.indices where bin < other.epochs.count {
            epochs[bin] += other.epochs[bin]
            confidenceSum[bin] += other.confidenceSum[bin]
            correct[bin] += other.correct[bin]
        }
    }

    /// Epochs counted.
    package var total: Int { epochs.reduce(0, +) }

    /// The expected calibration error (0 perfect; NaN without epochs).
    package var expectedCalibrationError: Double {
        let total = total
        guard total > 0 else { return .nan }
        var sum = 0.0
        for bin in epochs.indices {
            // The bin's weight (its epochs / total) times |accuracy − mean confidence|: |correct − Σ confidence|.
            sum += abs(Double(correct[bin]) - confidenceSum[bin])
        }
        return sum / Double(total)
    }

    /// The bins, for a reliability diagram.
    package var bins: [Bin] {
        let width = 1 / Double(epochs.count)
        return epochs.indices.map { bin in
            let n = Double(epochs[bin])
            return Bin(
                lower: Double(bin) * width, upper: Double(bin + 1) * width, epochs: epochs[bin],
                meanConfidence: n > 0 ? confidenceSum[bin] / n : .nan,
                accuracy: n > 0 ? Double(correct[bin]) / n : .nan)
        }
    }
}

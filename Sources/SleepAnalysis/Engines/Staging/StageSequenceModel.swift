import Foundation

/// A hidden Markov model over the four stages (order: awake, light, deep, REM) that turns per-epoch classifier
/// outputs into a sequence: the classifier's posterior divided by the training class prior raised to an exponent
/// (tuned per context) is the emission likelihood; transitions come from expert-scored hypnograms.
///
/// Real time uses the forward pass only (a filter: causal); the whole night uses forward–backward.
struct StageSequenceModel: Sendable, Codable {
    /// Probability of each stage at the first epoch.
    let initial: [Double]
    /// `transitions[from][to]` per 30-second epoch; rows sum to 1.
    let transitions: [[Double]]
    /// Class frequencies of the classifier's training data.
    let classPriors: [Double]

    /// The emission likelihood for a classifier posterior.
    ///
    /// - Parameters:
    ///   - posterior: the classifier's stage probabilities.
    ///   - priorExponent: how much of the class prior to divide out (0...1).
    func emission(_ posterior: [Double], priorExponent: Double) -> [Double] {
        zip(posterior, classPriors).map { max($0, 1e-6) / pow(max($1, 1e-6), priorExponent) }
    }

    /// One forward step: the filtered distribution after an epoch with `emission`, given the previous one.
    func forwardStep(previous: [Double]?, emission: [Double]) -> [Double] {
        let predicted: [Double]
        if let previous {
            predicted = (0..<4).map { to in (0..<4).reduce(0) { $0 + previous[$1] * transitions[$1][to] } }
        } else {
            predicted = initial
        }
        return Self.normalised(zip(predicted, emission).map { $0 * $1 })
    }

    /// Smoothed posteriors for a whole night of emissions (forward–backward, scaled per epoch).
    func smoothed(_ emissions: [[Double]]) -> [[Double]] {
        guard !emissions.isEmpty else { return [] }
        var forward: [[Double]] = []
        forward.reserveCapacity(emissions.count)
        for emission in emissions { forward.append(forwardStep(previous: forward.last, emission: emission)) }
        var backward = [Double](repeating: 1, count: 4)
        var posteriors = [[Double]](repeating: [], count: emissions.count)
        for index in stride(from: emissions.count - 1, through: 0, by: -1) {
            posteriors[index] = Self.normalised(zip(forward[index], backward).map { $0 * $1 })
            let weighted = zip(emissions[index], backward).map { $0 * $1 }
            backward = Self.normalised(
                (0..<4).map { from in
                    (0..<4).reduce(0) { $0 + transitions[from][$1] * weighted[$1] }
                })
        }
        return posteriors
    }

    /// Checks shapes and values.
    func validate() throws {
        let rowsOK = transitions.count == 4 && transitions.allSatisfy { $0.count == 4 && $0.allSatisfy { $0 >= 0 } }
        guard rowsOK, initial.count == 4, classPriors.count == 4 else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("staging sequence model: bad shape")
        }
    }

    static func normalised(_ values: [Double]) -> [Double] {
        let sum = values.reduce(0, +)
        guard sum > 0, sum.isFinite else { return [Double](repeating: 1.0 / Double(values.count), count: values.count) }
        return values.map { $0 / sum }
    }
}

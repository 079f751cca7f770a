import Foundation

/// Accumulates the window features of one snoring event and turns them into its 16-value signature: the mean
/// standardised feature vector, centred and projected on the model's signature directions, scaled to unit
/// length. Snores of one person give nearby signatures (compare them with the dot product).
struct SnoreSignatureAccumulator {
    private var sum: [Double]
    private var count = 0

    /// Creates an empty accumulator for feature vectors of the given length.
    init(featureCount: Int) {
        sum = [Double](repeating: 0, count: featureCount)
    }

    /// Whether no window has been added.
    var isEmpty: Bool { count == 0 }

    /// Adds one window's raw (unstandardised) features.
    mutating func add(_ features: [Float]) {
        for index in sum.indices { sum[index] += Double(features[index]) }
        count += 1
    }

    /// The signature of the windows added so far, or nil when none was added.
    ///
    /// - Parameter model: The model holding the standardisation and the projection.
    /// - Returns: `model.signatureProjection.count` values of unit Euclidean norm.
    func signature(model: EventClassifierModel) -> [Float]? {
        guard count > 0 else { return nil }
        var centred = [Double](repeating: 0, count: sum.count)
        for index in sum.indices {
            let standardised =
                (sum[index] / Double(count) - Double(model.featureMean[index]))
                / Double(model.featureStd[index])
            centred[index] = standardised - Double(model.signatureMean[index])
        }
        var values = model.signatureProjection.map { row in
            zip(row, centred).reduce(0.0) { $0 + Double($1.0) * $1.1 }
        }
        let norm = values.reduce(0.0) { $0 + $1 * $1 }.squareRoot()
        if norm > 1e-12 { values = values.map { $0 / norm } }
        return values.map { Float($0) }
    }

    /// Forgets the windows added so far.
    mutating func reset() {
        for index in sum.indices { sum[index] = 0 }
        count = 0
    }
}

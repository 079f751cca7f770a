import Foundation

/// A multi-class gradient-boosted tree ensemble (exported from LightGBM by `Tools/staging/train.py`):
/// tree *k* adds to the raw score of class *k mod classCount*; probabilities are the softmax of the scores.
struct GradientBoostedTrees: Sendable, Codable {
    /// Number of classes.
    let classCount: Int
    /// Number of input features.
    let featureCount: Int
    /// The trees, in boosting order.
    let trees: [DecisionTree]

    /// Class probabilities for one feature vector (NaN = missing).
    func probabilities(_ features: [Double]) -> [Double] {
        var scores = [Double](repeating: 0, count: classCount)
        for (index, tree) in trees.enumerated() {
            scores[index % classCount] += tree.value(features)
        }
        let top = scores.max() ?? 0
        let exponentials = scores.map { exp($0 - top) }
        let sum = exponentials.reduce(0, +)
        return exponentials.map { $0 / sum }
    }

    /// Checks that every node refers to a feature and a child that exist.
    func validate() throws {
        guard classCount >= 2, !trees.isEmpty, trees.count % classCount == 0 else {
            throw SleepCycleSdkError.modelIntegrityCheckFailed("staging trees: bad class or tree count")
        }
        for tree in trees { try tree.validate(featureCount: featureCount) }
    }
}

/// One regression tree. Internal node *i* tests `features[feature[i]] <= threshold[i]`; a child index ≥ 0 is an
/// internal node, a negative index *c* is the leaf `-(c + 1)`. Missing values follow LightGBM: with
/// `missingType` 2 (NaN) a NaN goes to the default side; with 1 (zero) a zero or NaN does; with 0 a NaN counts as 0.
struct DecisionTree: Sendable, Codable {
    let feature: [Int]
    let threshold: [Double]
    let left: [Int]
    let right: [Int]
    let defaultLeft: [Bool]
    let missingType: [Int]
    let leaf: [Double]

    /// The tree's output for a feature vector.
    func value(_ features: [Double]) -> Double {
        if feature.isEmpty { return leaf.first ?? 0 }
        var node = 0
        while node >= 0 {
            var x = features[feature[node]]
            let missing = missingType[node]
            if x.isNaN && missing != 2 { x = 0 }
            let goesDefault = (missing == 1 && abs(x) <= 1e-35) || (missing == 2 && x.isNaN)
            let goLeft = goesDefault ? defaultLeft[node] : x <= threshold[node]
            node = goLeft ? left[node] : right[node]
        }
        return leaf[-(node + 1)]
    }

    fileprivate func validate(featureCount: Int) throws {
        let count = feature.count
        guard threshold.count == count, left.count == count, right.count == count, defaultLeft.count == count,
            missingType.count == count, leaf.count == count + 1
        else { throw SleepCycleSdkError.modelIntegrityCheckFailed("staging tree: array lengths differ") }
        for node in 0..<count {
            guard feature[node] >= 0, feature[node] < featureCount else {
                throw SleepCycleSdkError.modelIntegrityCheckFailed("staging tree: feature index out of range")
            }
            for child in [left[node], right[node]] {
                guard child > node || (child < 0 && -(child + 1) < leaf.count) else {
                    throw SleepCycleSdkError.modelIntegrityCheckFailed("staging tree: bad child index")
                }
                guard child < count else {
                    throw SleepCycleSdkError.modelIntegrityCheckFailed("staging tree: child index out of range")
                }
            }
        }
    }
}

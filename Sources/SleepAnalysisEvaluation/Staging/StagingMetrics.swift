import Foundation
import SleepAnalysis

/// Agreement between scored and predicted stages over pooled epochs: accuracy, Cohen's kappa and recalls,
/// for four classes, for wake / NREM / REM, and for sleep / wake.
package struct StagingMetrics: Sendable, Hashable, Codable {
    /// Four classes (awake, light, deep, REM).
    package struct FourClass: Sendable, Hashable, Codable {
        /// Fraction of epochs staged correctly.
        package var accuracy: Double
        /// Cohen's kappa.
        package var kappa: Double
        /// Recall of each stage (by `SleepStage` raw value); a stage never scored is left out.
        package var perStageRecall: [String: Double]
    }

    /// Wake / NREM / REM.
    package struct ThreeClass: Sendable, Hashable, Codable {
        /// Fraction of epochs staged correctly.
        package var accuracy: Double
        /// Cohen's kappa.
        package var kappa: Double
    }

    /// Sleep / wake.
    package struct SleepWake: Sendable, Hashable, Codable {
        /// Fraction of epochs staged correctly.
        package var accuracy: Double
        /// Cohen's kappa.
        package var kappa: Double
        /// Fraction of scored wake epochs predicted awake.
        package var wakeSpecificity: Double
        /// Fraction of scored sleep epochs predicted asleep.
        package var sleepSensitivity: Double
    }

    /// Number of epochs compared.
    package var epochs: Int
    /// Four-class figures.
    package var fourClass: FourClass
    /// Wake / NREM / REM figures.
    package var threeClass: ThreeClass
    /// Sleep / wake figures.
    package var sleepWake: SleepWake

    /// Computes the figures for pairs of scored and predicted stages.
    ///
    /// - Parameter pairs: (scored, predicted) per epoch.
    package init(pairs: [(truth: SleepStage, predicted: SleepStage)]) {
        epochs = pairs.count
        let order = StagingModel.stageOrder
        let index: (SleepStage) -> Int = { stage in order.firstIndex(of: stage) ?? 0 }
        let four = Self.confusion(pairs.map { (index($0.truth), index($0.predicted)) }, classes: 4)
        let threeMap: (SleepStage) -> Int = { $0 == .awake ? 0 : ($0 == .rem ? 2 : 1) }
        let three = Self.confusion(pairs.map { (threeMap($0.truth), threeMap($0.predicted)) }, classes: 3)
        let twoMap: (SleepStage) -> Int = { $0 == .awake ? 0 : 1 }
        let two = Self.confusion(pairs.map { (twoMap($0.truth), twoMap($0.predicted)) }, classes: 2)
        var recall: [String: Double] = [:]
        for (index, stage) in order.enumerated() {
            let total = four[index].reduce(0, +)
            if total > 0 { recall[stage.rawValue] = Double(four[index][index]) / Double(total) }
        }
        fourClass = FourClass(accuracy: Self.accuracy(four), kappa: Self.kappa(four), perStageRecall: recall)
        threeClass = ThreeClass(accuracy: Self.accuracy(three), kappa: Self.kappa(three))
        let wakeTotal = two[0].reduce(0, +)
        let sleepTotal = two[1].reduce(0, +)
        sleepWake = SleepWake(
            accuracy: Self.accuracy(two), kappa: Self.kappa(two),
            wakeSpecificity: wakeTotal > 0 ? Double(two[0][0]) / Double(wakeTotal) : .nan,
            sleepSensitivity: sleepTotal > 0 ? Double(two[1][1]) / Double(sleepTotal) : .nan)
    }

    /// `confusion[truth][predicted]` counts.
    static func confusion(_ pairs: [(Int, Int)], classes: Int) -> [[Int]] {
        var matrix = [[Int]](repeating: [Int](repeating: 0, count: classes), count: classes)
        for (truth, predicted) in pairs { matrix[truth][predicted] += 1 }
        return matrix
    }

    static func accuracy(_ matrix: [[Int]]) -> Double {
        let total = matrix.joined().reduce(0, +)
        guard total > 0 else { return .nan }
        return Double(matrix.indices.reduce(0) { $0 + matrix[$1][$1] }) / Double(total)
    }

    /// Cohen's kappa: (observed − chance agreement) / (1 − chance agreement); 0 when chance agreement is 1.
    static func kappa(_ matrix: [[Int]]) -> Double {
        let total = Double(matrix.joined().reduce(0, +))
        guard total > 0 else { return .nan }
        let observed = Double(matrix.indices.reduce(0) { $0 + matrix[$1][$1] }) / total
        var chance = 0.0
        for index in matrix.indices {
            let rowSum = Double(matrix[index].reduce(0, +))
            let columnSum = Double(matrix.reduce(0) { $0 + $1[index] })
            chance += rowSum * columnSum / (total * total)
        }
        return chance >= 1 ? 0 : (observed - chance) / (1 - chance)
    }
}

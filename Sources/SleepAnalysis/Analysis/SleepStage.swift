import Foundation

/// A sleep stage, as scored for each 30-second epoch.
public enum SleepStage: String, Sendable, Hashable, Codable, CodingKeyRepresentable, CaseIterable,
    CustomStringConvertible
{
    /// Awake.
    case awake
    /// Light sleep (N1 and N2).
    case light
    /// Deep sleep (N3).
    case deep
    /// Rapid-eye-movement sleep.
    case rem

    /// The case name.
    public var description: String { rawValue }
}

/// The probability of each stage for one epoch; the four values sum to 1.
public struct SleepStageProbabilities: Sendable, Hashable, Codable {
    /// Probability of being awake.
    public var awake: Double
    /// Probability of REM sleep.
    public var rem: Double
    /// Probability of light sleep.
    public var light: Double
    /// Probability of deep sleep.
    public var deep: Double

    /// Creates probabilities, normalising them so that they sum to 1.
    ///
    /// Negative or non-finite inputs count as 0; if all are 0 the result is uniform.
    ///
    /// - Parameters:
    ///   - awake: Probability of being awake.
    ///   - rem: Probability of REM sleep.
    ///   - light: Probability of light sleep.
    ///   - deep: Probability of deep sleep.
    public init(awake: Double, rem: Double, light: Double, deep: Double) {
        let clean = [awake, rem, light, deep].map { $0.isFinite && $0 > 0 ? $0 : 0 }
        let sum = clean.reduce(0, +)
        if sum > 0 {
            self.awake = clean[0] / sum
            self.rem = clean[1] / sum
            self.light = clean[2] / sum
            self.deep = clean[3] / sum
        } else {
            self.awake = 0.25
            self.rem = 0.25
            self.light = 0.25
            self.deep = 0.25
        }
    }

    /// The probability of one stage.
    ///
    /// - Parameter stage: The stage.
    /// - Returns: Its probability, 0...1.
    public subscript(stage: SleepStage) -> Double {
        switch stage {
        case .awake: awake
        case .rem: rem
        case .light: light
        case .deep: deep
        }
    }

    /// The most probable stage (ties resolved in the order awake, light, deep, rem).
    public var mostLikely: SleepStage {
        SleepStage.allCases.max { self[$0] < self[$1] } ?? .awake
    }
}

/// A stretch of time spent in one stage.
public struct SleepStageInterval: Sendable, Hashable, Codable {
    /// The stage.
    public var stage: SleepStage
    /// When it started and ended.
    public var interval: DateInterval

    /// Creates an interval.
    ///
    /// - Parameters:
    ///   - stage: The stage.
    ///   - interval: When it started and ended.
    public init(stage: SleepStage, interval: DateInterval) {
        self.stage = stage
        self.interval = interval
    }
}

/// The prediction for one 30-second epoch: the most likely stage and every stage's probability.
public struct SleepStagePrediction: Sendable, Hashable, Codable {
    /// The most likely stage.
    public var stage: SleepStage
    /// The epoch.
    public var interval: DateInterval
    /// Each stage's probability.
    public var probabilities: SleepStageProbabilities

    /// Creates a prediction.
    ///
    /// - Parameters:
    ///   - stage: The stage.
    ///   - interval: When it started and ended.
    ///   - probabilities: Each stage's probability.
    public init(stage: SleepStage, interval: DateInterval, probabilities: SleepStageProbabilities) {
        self.stage = stage
        self.interval = interval
        self.probabilities = probabilities
    }
}

import Foundation

/// A night's sleep score and its three parts, each 0...1 (higher is better).
///
/// `total = 0.40 · duration + 0.35 · quality + 0.25 · routine`; see `SleepScoring` for each part's formula.
public struct SleepScore: Sendable, Codable, Hashable {
    /// The overall score of the night.
    public var total: Float
    /// How the time asleep compares with the sleeper's age-appropriate sleep need.
    public var duration: Float
    /// Efficiency, onset latency, awakenings, wake after onset, and the shares of deep and REM sleep.
    public var quality: Float
    /// Regularity of bedtime and wake time against recent nights, and timing against the chronotype.
    public var routine: Float

    /// Creates a score.
    ///
    /// - Parameters:
    ///   - total: The overall score, 0...1.
    ///   - duration: The duration part, 0...1.
    ///   - quality: The quality part, 0...1.
    ///   - routine: The routine part, 0...1.
    public init(total: Float, duration: Float, quality: Float, routine: Float) {
        self.total = total
        self.duration = duration
        self.quality = quality
        self.routine = routine
    }
}

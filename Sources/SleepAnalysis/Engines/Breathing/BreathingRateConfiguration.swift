import Foundation

/// Tuning of the breathing-rate estimator. The defaults are what the package was validated with.
package struct BreathingRateConfiguration: Sendable, Hashable {
    /// Whether audio is expected (the estimator waits for it before publishing a window).
    var useAudio: Bool = true
    /// Whether accelerometer readings are expected.
    var useAccelerometer: Bool = false
    /// Length of the analysed window (seconds).
    var windowSeconds: Double = 60
    /// Interval between estimates (seconds): one per window end on this grid.
    var hopSeconds: Double = 30
    /// A window with less signal than this (seconds) gives no estimate.
    var minimumWindowSeconds: Double = 45
    /// Envelope frame length (seconds): a whole number of front-end hops (10 ms).
    var frameSeconds: Double = 0.1
    /// Slowest rate reported (breaths per minute).
    var minimumBpm: Double = 6
    /// Fastest rate reported (breaths per minute).
    var maximumBpm: Double = 30
    /// The shortest autocorrelation peak at least this fraction of the highest is the period candidate.
    var peakFraction: Double = 0.7
    /// Fold-test ratio above which the candidate is doubled (inhale and exhale counted as two breaths).
    var alternationThreshold: Double = 2.0
    /// Sub-harmonic check of the period picker (`sa_breathing.h`): a period is divided by 3 or 2 when every
    /// multiple of the shorter period has an autocorrelation peak at least this fraction of the one at the period;
    /// 0 switches it off.
    var harmonicFraction: Double = 0.6
    /// Neighbouring windows (off by default): with N > 0, an audio rate about a half or a third of the median of
    /// the last N audio rates is replaced by the window's own periodicity near that median when the window has one
    /// scoring at least `minimumScore`; such a rate without it, and a rate 2 or 3 times the median, is not
    /// published (`BreathingRateEstimator.neighbourDecision`). Off because on composed nights, whose rate jumps at
    /// random, it dropped real changes of rate and helped nowhere (`Tools/breathing/README.md`).
    var neighbourWindows: Int = 0
    /// Summary-autocorrelation score below which a window counts as not periodic (no estimate).
    var minimumScore: Double = 0.15
    /// Score that maps to confidence 1 (confidence rises linearly from `scoreAtZeroConfidence`).
    var scoreAtFullConfidence: Double = 0.45
    /// Score that maps to confidence 0.
    var scoreAtZeroConfidence: Double = 0.1
    /// Accelerometer deviation from its recent mean (g) that marks body movement, masked from analysis.
    var movementThresholdG: Double = 0.012
    /// Relative difference under which audio and accelerometer estimates agree.
    var agreementTolerance: Double = 0.15

    /// Creates the default configuration.
    package init() {}

    /// Checks the values are usable.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` naming the first bad value.
    func validate() throws {
        func require(_ ok: Bool, _ what: String) throws {
            if !ok { throw SleepCycleSdkError.invalidConfiguration("breathing: \(what)") }
        }
        try require(windowSeconds >= 20 && windowSeconds <= 600, "windowSeconds must be in 20...600")
        try require(hopSeconds > 0 && hopSeconds <= windowSeconds, "hopSeconds must be in (0, windowSeconds]")
        try require(
            minimumWindowSeconds > 0 && minimumWindowSeconds <= windowSeconds,
            "minimumWindowSeconds must be in (0, windowSeconds]")
        try require(frameSeconds >= 0.02 && frameSeconds <= 0.5, "frameSeconds must be in 0.02...0.5")
        let hops = frameSeconds / FrontEndConfiguration.standard.frameDuration
        try require(abs(hops - hops.rounded()) < 1e-6, "frameSeconds must be a whole number of 10-ms front-end hops")
        try require(minimumBpm > 0 && maximumBpm > minimumBpm, "need 0 < minimumBpm < maximumBpm")
        try require(60 / minimumBpm * 2 <= windowSeconds + 1e-9, "the window must hold two cycles of the slowest rate")
        try require(peakFraction > 0 && peakFraction <= 1, "peakFraction must be in (0, 1]")
        try require(alternationThreshold > 0, "alternationThreshold must be positive")
        try require(harmonicFraction >= 0 && harmonicFraction <= 1, "harmonicFraction must be in 0...1")
        try require(neighbourWindows >= 0 && neighbourWindows <= 20, "neighbourWindows must be in 0...20")
        try require(minimumScore > 0 && minimumScore < 1, "minimumScore must be in (0, 1)")
        try require(scoreAtFullConfidence > scoreAtZeroConfidence, "scoreAtFullConfidence must exceed the zero point")
        try require(movementThresholdG > 0, "movementThresholdG must be positive")
        try require(agreementTolerance > 0 && agreementTolerance < 0.5, "agreementTolerance must be in (0, 0.5)")
    }

    /// Confidence 0...1 for a periodicity score.
    func confidence(forScore score: Double) -> Double {
        min(1, max(0, (score - scoreAtZeroConfidence) / (scoreAtFullConfidence - scoreAtZeroConfidence)))
    }
}

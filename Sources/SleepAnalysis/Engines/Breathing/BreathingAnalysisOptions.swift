/// Settings of an offline breathing analysis (`BreathingAnalysis.analyze`). The defaults are a live session's.
public struct BreathingAnalysisOptions: Sendable, Hashable {
    /// The analysed window (seconds, 20...600; 60 in a session). Estimates come every half window, need three
    /// quarters of a window of data, and rates are searched from two cycles per window up (at least 6 per minute).
    public var windowSeconds: Double
    /// Periodicity analysis: the shortest autocorrelation peak at least this fraction of the highest is the period
    /// candidate (0...1; default 0.7). For evaluation and tuning.
    public var peakFraction: Double
    /// Periodicity analysis: how much the two halves of a doubled candidate cycle must differ (fold-test ratio;
    /// default 2) for the period to be doubled, i.e. for two sounds per cycle to count as inhale and exhale of one
    /// breath. For evaluation and tuning.
    public var alternationThreshold: Double
    /// Periodicity analysis: the sub-harmonic check's fraction (0...1; default 0.6; 0 switches off the check for a
    /// period 2 or 3 times the breath). For evaluation and tuning.
    public var harmonicFraction: Double = 0.6
    /// Abstention: the periodicity score (0...1) below which a window gets no rate (default 0.15). For evaluation
    /// and tuning.
    public var minimumScore: Double = 0.15
    /// The neighbouring-window check (0...20 windows; default 0, off): a rate a factor of 2 or 3 away from the
    /// median of the last N windows' rates is read at that median or not published. For evaluation: it is off in
    /// sessions, since on composed nights it cost more windows than it saved.
    public var neighbourWindows: Int = 0

    /// Creates options.
    ///
    /// - Parameters:
    ///   - windowSeconds: Analysed window (default 60 s).
    ///   - peakFraction: Peak-choice fraction (default 0.7).
    ///   - alternationThreshold: Fold-test threshold (default 2).
    public init(windowSeconds: Double = 60, peakFraction: Double = 0.7, alternationThreshold: Double = 2) {
        self.windowSeconds = windowSeconds
        self.peakFraction = peakFraction
        self.alternationThreshold = alternationThreshold
    }
}

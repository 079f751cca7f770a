import CSleepDSP

/// Owns one `sa_breath_period` (the C periodicity analyser: the breathing period of a window of frames, from the
/// summary autocorrelation over channels) and frees it when released. Not thread-safe: use one instance from one
/// task.
final class DSPBreathPeriodHandle {
    /// What the analyser found in one window.
    struct Period: Sendable, Hashable {
        /// Whether a periodic peak exists in the searched range (the other values mean nothing when not).
        var found: Bool
        /// Breaths per minute.
        var bpm: Double
        /// Mean summary autocorrelation at the chosen period and twice it, -1...1.
        var score: Double
        /// Fold-test ratio for the doubled candidate.
        var alternation: Double
        /// 1, or the factor the sub-harmonic check divided the period by (2 or 3).
        var harmonic: Int
        /// Share of the window's frames that were valid.
        var validFraction: Double
    }

    private var handle: OpaquePointer?

    /// Creates the C analyser (the core's defaults for detrending and smoothing).
    ///
    /// - Parameters:
    ///   - frameRate: frames per second of the input.
    ///   - minimumBpm: the slowest rate searched.
    ///   - maximumBpm: the fastest rate searched.
    ///   - peakFraction: the shortest peak at least this fraction of the highest is the candidate.
    ///   - alternationThreshold: fold-test ratio above which the period is doubled.
    ///   - searchesHalfCycles: also search down to half the shortest breath period, where a periodicity is two
    ///     sounds per breath (inhale and exhale) and its double is reported (audio; not chest motion).
    ///   - harmonicFraction: the sub-harmonic check's fraction (0 switches it off; see `sa_breathing.h`).
    ///   - maximumFrames: the most frames a window may have.
    ///   - maximumChannels: the most channels a frame may have.
    /// - Throws: `DSPError` ("sa_breath_period_init") for an unusable rate range or size, or a memory failure.
    init(
        frameRate: Double, minimumBpm: Double, maximumBpm: Double, peakFraction: Double,
        alternationThreshold: Double, searchesHalfCycles: Bool, harmonicFraction: Double, maximumFrames: Int,
        maximumChannels: Int
    ) throws(DSPError) {
        var config = sa_breath_period_default_config(frameRate)
        config.min_bpm = minimumBpm
        config.max_bpm = maximumBpm
        config.peak_fraction = peakFraction
        config.alternation_threshold = alternationThreshold
        config.half_cycle_search = searchesHalfCycles ? 1 : 0
        config.harmonic_fraction = harmonicFraction
        var created: OpaquePointer?
        try DSPError.check(
            sa_breath_period_init(&created, &config, maximumFrames, maximumChannels), "sa_breath_period_init")
        handle = created
    }

    deinit {
        sa_breath_period_destroy(&handle)
    }

    /// Analyses a window of frames.
    ///
    /// - Parameters:
    ///   - frames: `frameCount` frames, frame-major, `channelCount` values each.
    ///   - frameCount: frames in the window (at most the maximum given at creation).
    ///   - channelCount: values per frame (at most the maximum given at creation).
    ///   - valid: per frame, nonzero when it is usable; nil when all are.
    /// - Returns: what was found.
    /// - Throws: `DSPError` ("sa_breath_period_analyze") when the core refuses the window.
    func analyze(frames: [Float], frameCount: Int, channelCount: Int, valid: [UInt8]?) throws(DSPError) -> Period {
        var result = sa_breath_period_result()
        let status = frames.withUnsafeBufferPointer { input -> sa_status in
            if let valid {
                return valid.withUnsafeBufferPointer { mask in
                    sa_breath_period_analyze(
                        handle, input.baseAddress, frameCount, channelCount, mask.baseAddress, &result)
                }
            }
            return sa_breath_period_analyze(handle, input.baseAddress, frameCount, channelCount, nil, &result)
        }
        try DSPError.check(status, "sa_breath_period_analyze")
        return Period(
            found: result.found != 0, bpm: result.bpm, score: result.score, alternation: result.alternation,
            harmonic: Int(result.harmonic), validFraction: result.valid_fraction)
    }

    /// The last analysed window's autocorrelation peak nearest to `bpm` (within `tolerance` of its period): its
    /// rate and score, or nil when there is none (or the last analysis found nothing).
    func rate(near bpm: Double, tolerance: Double) -> (bpm: Double, score: Double)? {
        var found = 0.0, score = 0.0
        guard sa_breath_period_rate_near(handle, bpm, tolerance, &found, &score) != 0 else { return nil }
        return (found, score)
    }
}

import CSleepDSP

/// What the periodicity analyser found in one window.
struct PeriodEstimate: Sendable, Hashable {
    /// Breaths per minute.
    var bpm: Double
    /// Mean summary autocorrelation at the chosen period and at twice it (-1...1): how periodic the window is.
    var score: Double
    /// Share of the window's frames that were usable.
    var validFraction: Double
}

/// Finds the breathing period in a window of frames (audio bands or accelerometer axes)
/// (`sa_breath_period_*` does the work). Not thread-safe.
final class PeriodicityAnalyzer {
    private var handle: OpaquePointer?
    /// The most frames a window may have.
    let maximumFrames: Int
    /// The most channels a frame may have.
    let maximumChannels: Int

    /// Creates an analyser for windows of up to `maximumFrames` frames.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an unusable rate range.
    init(frameRate: Double, minimumBpm: Double, maximumBpm: Double, peakFraction: Double = 0.7,
         alternationThreshold: Double = 2.0, maximumFrames: Int, maximumChannels: Int) throws
    {
        var config = sa_breath_period_default_config(frameRate)
        config.min_bpm = minimumBpm
        config.max_bpm = maximumBpm
        config.peak_fraction = peakFraction
        config.alternation_threshold = alternationThreshold
        var analyser: OpaquePointer?
        try BreathingDSPStatus.check(
            sa_breath_period_init(&analyser, &config, maximumFrames, maximumChannels), "sa_breath_period_init")
        handle = analyser
        self.maximumFrames = maximumFrames
        self.maximumChannels = maximumChannels
    }

    deinit { sa_breath_period_destroy(&handle) }

    /// Analyses `frames` (frame-major, `channelCount` values each); `valid` marks usable frames (nil: all).
    ///
    /// - Returns: The estimate, or nil when nothing periodic is in range.
    func analyze(frames: [Float], channelCount: Int, valid: [UInt8]? = nil) -> PeriodEstimate? {
        let frameCount = frames.count / max(channelCount, 1)
        guard channelCount >= 1, channelCount <= maximumChannels, frameCount <= maximumFrames,
            valid == nil || valid?.count == frameCount
        else { return nil }
        var result = sa_breath_period_result()
        let status = frames.withUnsafeBufferPointer { input -> sa_status in
            if let valid {
                return valid.withUnsafeBufferPointer { mask in
                    sa_breath_period_analyze(handle, input.baseAddress, frameCount, channelCount, mask.baseAddress,
                                             &result)
                }
            }
            return sa_breath_period_analyze(handle, input.baseAddress, frameCount, channelCount, nil, &result)
        }
        guard status == SA_OK, result.found != 0 else { return nil }
        return PeriodEstimate(bpm: result.bpm, score: result.score, validFraction: result.valid_fraction)
    }
}

import CSleepDSP

/// Owns one `sa_stereo` (the C stereo cues: GCC-PHAT time difference and level difference of a pair of frames)
/// and frees it when released. Not thread-safe: use one instance from one task.
final class DSPStereoHandle {
    /// What one pair of frames gave.
    struct Cues: Sendable, Hashable {
        /// Time difference of arrival; positive when the sound reaches the primary channel first.
        var delaySeconds: Double
        /// Height of the PHAT-weighted correlation peak, 0...1.
        var confidence: Double
        /// Primary level minus secondary level (dB).
        var levelDifferenceDb: Double
    }

    /// Samples per frame of each channel.
    let frameSize: Int
    private var handle: OpaquePointer?

    /// Creates the C analysis.
    ///
    /// - Parameters:
    ///   - sampleRate: samples per second of each channel.
    ///   - frameSize: samples per frame of each channel.
    ///   - maxDelaySeconds: the largest time difference searched (clamped to the frame length).
    /// - Throws: `DSPError` ("stereo analysis set-up") for a bad rate, size or delay, or a memory or FFTW failure.
    init(sampleRate: Double, frameSize: Int, maxDelaySeconds: Double) throws(DSPError) {
        self.frameSize = frameSize
        var created: OpaquePointer?
        try DSPError.check(sa_stereo_init(sampleRate, frameSize, maxDelaySeconds, &created), "stereo analysis set-up")
        handle = created
    }

    deinit {
        sa_stereo_destroy(&handle)
    }

    /// Analyses one frame of each channel.
    ///
    /// - Parameters:
    ///   - primary: `frameSize` samples of the primary channel.
    ///   - secondary: `frameSize` samples of the secondary channel.
    /// - Returns: the frame's cues.
    /// - Throws: `DSPError` ("stereo analysis") when the core refuses the frame.
    func analyze(primary: [Float], secondary: [Float]) throws(DSPError) -> Cues {
        precondition(primary.count >= frameSize && secondary.count >= frameSize, "a frame of each channel")
        return try analyze(frameAt: primary, secondary)
    }

    /// Analyses one frame of each channel, read in place.
    ///
    /// - Parameters:
    ///   - primary: the first of `frameSize` samples of the primary channel.
    ///   - secondary: the first of `frameSize` samples of the secondary channel.
    /// - Returns: the frame's cues.
    /// - Throws: `DSPError` ("stereo analysis") when the core refuses the frame.
    func analyze(frameAt primary: UnsafePointer<Float>, _ secondary: UnsafePointer<Float>) throws(DSPError) -> Cues {
        var result = sa_stereo_cues()
        try DSPError.check(sa_stereo_analyze(handle, primary, secondary, &result), "stereo analysis")
        return Cues(
            delaySeconds: result.delay_seconds, confidence: result.confidence,
            levelDifferenceDb: result.level_difference_db)
    }
}

import CSleepDSP

/// Owns one `sa_breath_env` (the C envelope of breath and snore sounds: per-band log energies at a low frame rate,
/// from the front end's log-mel frames) and frees it when released. Not thread-safe: use one instance from one task.
final class DSPBreathEnvelopeHandle {
    /// Bands per frame.
    let bandCount: Int
    /// Mel bands per front-end frame.
    let melBandCount: Int
    private var handle: OpaquePointer?

    /// Creates the C envelope for the frames of a front end with these settings (see `DSPFrontEndHandle`).
    ///
    /// - Parameters:
    ///   - sampleRate: the front end's sample rate.
    ///   - fftSize: its FFT size (a periodic Hann window of this length).
    ///   - hopSize: samples between its frame ends.
    ///   - melBandCount: its mel bands per frame.
    ///   - melLowHz: its lowest mel band's lower edge.
    ///   - melHighHz: its highest mel band's upper edge.
    ///   - logFloor: what it adds to each mel energy before the log.
    ///   - framesPerEnvelopeFrame: front-end frames averaged into one envelope frame.
    /// - Throws: `DSPError` ("sa_breath_env_init") for unusable settings, or a memory failure.
    init(
        sampleRate: Double, fftSize: Int, hopSize: Int, melBandCount: Int, melLowHz: Double, melHighHz: Double,
        logFloor: Float, framesPerEnvelopeFrame: Int
    ) throws(DSPError) {
        guard fftSize > 0, hopSize > 0, melBandCount > 0, framesPerEnvelopeFrame > 0 else {
            throw DSPError(.invalidArgument, "sa_breath_env_init")
        }
        var config = sa_front_end_config(
            sample_rate: sampleRate, fft_size: fftSize, hop_size: hopSize, mel_band_count: melBandCount,
            mel_low_hz: melLowHz, mel_high_hz: melHighHz, log_floor: logFloor, level_offset_db: 0)
        var created: OpaquePointer?
        try DSPError.check(sa_breath_env_init(&created, &config, framesPerEnvelopeFrame), "sa_breath_env_init")
        handle = created
        bandCount = Int(sa_breath_env_band_count(created))
        self.melBandCount = melBandCount
    }

    deinit {
        sa_breath_env_destroy(&handle)
    }

    /// Feeds front-end frames and writes the envelope frames they complete, frame-major (`bandCount` natural-log
    /// energies each).
    ///
    /// - Parameters:
    ///   - logMel: the front end's log-mel energies of `frameCount` frames, frame-major.
    ///   - frameCount: how many frames to take from `logMel`.
    ///   - frames: where the envelope frames go: room for at most `frames.count / bandCount` of them.
    /// - Returns: the number of envelope frames written.
    /// - Throws: `DSPError` ("sa_breath_env_process") when `logMel` holds fewer than `frameCount` frames of
    ///   `melBandCount` values, or when the envelope frames would not fit (nothing is consumed).
    func process(
        logMel: UnsafeBufferPointer<Float>, frameCount: Int, into frames: UnsafeMutableBufferPointer<Float>
    ) throws(DSPError) -> Int {
        guard frameCount >= 0, logMel.count >= frameCount * melBandCount else {
            throw DSPError(.invalidArgument, "sa_breath_env_process")
        }
        var written = 0
        let status = sa_breath_env_process(
            handle, logMel.baseAddress, frameCount, frames.baseAddress, frames.count / max(bandCount, 1), &written)
        try DSPError.check(status, "sa_breath_env_process")
        return written
    }

    /// Forgets any partial frame.
    func reset() {
        sa_breath_env_reset(handle)
    }
}

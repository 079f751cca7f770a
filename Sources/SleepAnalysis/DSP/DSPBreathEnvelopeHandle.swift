import CSleepDSP

/// Owns one `sa_breath_env` (the C envelope of breath and snore sounds: per-band log energies at a low frame
/// rate) and frees it when released. Not thread-safe: use one instance from one task.
final class DSPBreathEnvelopeHandle {
    /// Bands per frame.
    let bandCount: Int
    private var handle: OpaquePointer?

    /// Creates the C extractor.
    ///
    /// - Parameters:
    ///   - sampleRate: the audio's rate.
    ///   - frameSeconds: the length of a frame.
    /// - Throws: `DSPError` ("sa_breath_env_init") for an unusable rate or frame length, or a memory failure.
    init(sampleRate: Double, frameSeconds: Double) throws(DSPError) {
        var created: OpaquePointer?
        try DSPError.check(sa_breath_env_init(&created, sampleRate, frameSeconds), "sa_breath_env_init")
        handle = created
        bandCount = Int(sa_breath_env_band_count(created))
    }

    deinit {
        sa_breath_env_destroy(&handle)
    }

    /// Feeds samples and writes the frames they complete, frame-major (`bandCount` natural-log energies each).
    ///
    /// - Parameters:
    ///   - samples: the next samples.
    ///   - frames: where the frames go: at most `frames.count / bandCount` of them (samples beyond that are kept
    ///     for the next call only up to one frame).
    /// - Returns: the number of frames written.
    /// - Throws: `DSPError` ("sa_breath_env_process") when the core refuses the call.
    func process(_ samples: [Float], into frames: UnsafeMutableBufferPointer<Float>) throws(DSPError) -> Int {
        var written = 0
        let status = samples.withUnsafeBufferPointer { input in
            sa_breath_env_process(
                handle, input.baseAddress, input.count, frames.baseAddress, frames.count / max(bandCount, 1), &written)
        }
        try DSPError.check(status, "sa_breath_env_process")
        return written
    }

    /// Forgets filter state and any partial frame.
    func reset() {
        sa_breath_env_reset(handle)
    }
}

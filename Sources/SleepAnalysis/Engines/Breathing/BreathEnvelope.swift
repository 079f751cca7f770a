import CSleepDSP

/// The envelope of breath and snore sounds: per-band log energies of audio at a low frame rate
/// (`sa_breath_env_*` does the work). Not thread-safe.
final class BreathEnvelope {
    /// Bands per frame.
    let bandCount: Int
    /// Samples per frame.
    let hop: Int
    private var handle: OpaquePointer?
    private var output: [Float] = []

    /// Creates an extractor for audio at `sampleRate` with frames of `frameSeconds`.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an unusable rate or frame length.
    init(sampleRate: Double, frameSeconds: Double) throws {
        var env: OpaquePointer?
        try BreathingDSPStatus.check(sa_breath_env_init(&env, sampleRate, frameSeconds), "sa_breath_env_init")
        handle = env
        bandCount = Int(sa_breath_env_band_count(env))
        hop = Int((sampleRate * frameSeconds).rounded())
    }

    deinit { sa_breath_env_destroy(&handle) }

    /// Feeds samples; returns the frames they complete, frame-major (`bandCount` values each).
    func process(_ samples: [Float]) -> [Float] {
        let capacity = samples.count / hop + 2
        if output.count < capacity * bandCount { output = [Float](repeating: 0, count: capacity * bandCount) }
        var written = 0
        let status = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { frames in
                sa_breath_env_process(handle, input.baseAddress, input.count, frames.baseAddress, capacity, &written)
            }
        }
        // The arguments are sized above, so the call cannot fail; an error would only drop these frames.
        guard status == SA_OK else { return [] }
        return Array(output[0..<(written * bandCount)])
    }

    /// Forgets filter state and any partial frame (after a gap in the input).
    func reset() { sa_breath_env_reset(handle) }
}

import CSleepDSP

/// Owns one `sa_level_meter` (the C sound level meter: A-weighted and unweighted mean square per frame, at the
/// signal's own rate) and frees it when released. Not thread-safe: use one instance from one task.
final class DSPLevelMeterHandle {
    private var handle: OpaquePointer?

    /// Creates the C meter.
    ///
    /// - Parameters:
    ///   - sampleRate: the signal's rate (1 Hz ... 1 MHz).
    ///   - windowSize: window length (samples, ≥ 2).
    ///   - hopSize: samples between frame ends (≥ 1).
    /// - Throws: `DSPError` ("sound level meter set-up") for a bad rate or size, or a memory or FFTW failure.
    init(sampleRate: Double, windowSize: Int, hopSize: Int) throws(DSPError) {
        var created: OpaquePointer?
        try DSPError.check(sa_level_meter_init(sampleRate, windowSize, hopSize, &created), "sound level meter set-up")
        handle = created
    }

    deinit {
        sa_level_meter_destroy(&handle)
    }

    /// Feeds the next samples and returns the mean squares of the frames they complete.
    ///
    /// - Parameter samples: mono samples in −1...1.
    /// - Returns: one A-weighted and one unweighted mean square per completed frame (full-scale units).
    func process(_ samples: [Float]) -> (aWeighted: [Double], unweighted: [Double]) {
        let expected = sa_level_meter_frames_for(handle, samples.count)
        var weighted = [Double](repeating: 0, count: expected)
        var flat = [Double](repeating: 0, count: expected)
        var written = 0
        let status = samples.withUnsafeBufferPointer { input in
            weighted.withUnsafeMutableBufferPointer { a in
                flat.withUnsafeMutableBufferPointer { u in
                    sa_level_meter_process(
                        handle, input.baseAddress, input.count, a.baseAddress, u.baseAddress, expected, &written)
                }
            }
        }
        // Buffers are sized by sa_level_meter_frames_for, so the call cannot be refused.
        assert(status == SA_OK && written == expected, "\(DSPError(.init(status), "sa_level_meter_process"))")
        if written < expected {
            weighted.removeLast(expected - written)
            flat.removeLast(expected - written)
        }
        return (weighted, flat)
    }

    /// Completes a last, partial frame from the samples fed since the last frame.
    ///
    /// - Returns: its A-weighted and unweighted mean squares, or nil when no samples are pending.
    func flush() -> (aWeighted: Double, unweighted: Double)? {
        var weighted = 0.0
        var flat = 0.0
        var written = 0
        let status = sa_level_meter_flush(handle, &weighted, &flat, &written)
        assert(status == SA_OK, "\(DSPError(.init(status), "sa_level_meter_flush"))")
        return written == 1 ? (weighted, flat) : nil
    }
}

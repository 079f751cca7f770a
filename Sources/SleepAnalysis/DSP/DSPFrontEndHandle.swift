import CSleepDSP

/// Owns one `sa_front_end` (the C audio front end: per 10 ms frame, log-mel band energies and levels from one
/// FFT) and frees it when released. Not thread-safe: use one instance from one task.
final class DSPFrontEndHandle {
    /// The frames one block of samples completed.
    struct Frames {
        /// Frames completed by the block.
        var count: Int
        /// Natural-log mel energies, frame-major (`count` × `melBandCount`).
        var logMel: [Float]
        /// The A-weighted level plus the calibration offset, one per frame.
        var dbSpl: [Float]
        /// The unweighted level in dBFS, one per frame.
        var dbfs: [Float]
    }

    /// Mel bands per frame.
    let melBandCount: Int
    private var handle: OpaquePointer?

    /// Creates the C front end (window, mel bank and A-weighting are computed from the rate).
    ///
    /// - Parameters:
    ///   - sampleRate: samples per second.
    ///   - fftSize: samples per frame.
    ///   - hopSize: samples between frame ends.
    ///   - melBandCount: mel bands per frame.
    ///   - melLowHz: the lowest band's lower edge.
    ///   - melHighHz: the highest band's upper edge.
    ///   - logFloor: added to each mel energy before the log.
    ///   - levelOffsetDb: dB SPL = A-weighted dBFS + this.
    /// - Throws: `DSPError` ("front end set-up") for a bad rate, size or band edge, or a memory or FFTW failure.
    init(
        sampleRate: Double, fftSize: Int, hopSize: Int, melBandCount: Int, melLowHz: Double, melHighHz: Double,
        logFloor: Float, levelOffsetDb: Double
    ) throws(DSPError) {
        self.melBandCount = melBandCount
        var config = sa_front_end_config(
            sample_rate: sampleRate, fft_size: fftSize, hop_size: hopSize, mel_band_count: melBandCount,
            mel_low_hz: melLowHz, mel_high_hz: melHighHz, log_floor: logFloor, level_offset_db: levelOffsetDb)
        var created: OpaquePointer?
        try DSPError.check(sa_front_end_init(&config, &created), "front end set-up")
        handle = created
    }

    deinit {
        sa_front_end_destroy(&handle)
    }

    /// Frames completed since the stream began.
    var frameCount: Int64 { sa_front_end_frame_count(handle) }

    /// Feeds samples (mono, any block size) and returns the frames they complete.
    ///
    /// - Parameter samples: the next samples of the stream, in −1...1.
    /// - Returns: the completed frames.
    func process(_ samples: [Float]) -> Frames {
        let expected = sa_front_end_frames_for(handle, samples.count)
        let bands = melBandCount
        var written = 0
        var status = SA_OK
        var dbSpl: [Float] = []
        var dbfs: [Float] = []
        // The C core writes every element of the three outputs, so they need no zero-fill first.
        let logMel = [Float](unsafeUninitializedCapacity: expected * bands) { mel, melCount in
            dbSpl = [Float](unsafeUninitializedCapacity: expected) { spl, splCount in
                dbfs = [Float](unsafeUninitializedCapacity: expected) { fs, fsCount in
                    status = samples.withUnsafeBufferPointer { input in
                        sa_front_end_process(
                            handle, input.baseAddress, input.count, mel.baseAddress, spl.baseAddress, fs.baseAddress,
                            expected, &written)
                    }
                    fsCount = status == SA_OK ? written : 0
                }
                splCount = status == SA_OK ? written : 0
            }
            melCount = status == SA_OK ? written * bands : 0
        }
        // Buffers are sized by sa_front_end_frames_for, so the call cannot be refused.
        assert(status == SA_OK && written == expected, "\(DSPError(.init(status), "sa_front_end_process"))")
        return Frames(count: written, logMel: logMel, dbSpl: dbSpl, dbfs: dbfs)
    }
}

import CSleepDSP
import Foundation

/// The audio front end: streams mono samples in, gives log-mel band energies and levels per 10 ms frame.
///
/// Streaming: history is kept across calls, so the frames (and every number in them) are the same however the
/// input is split into blocks. Levels per frame: `dbfs` is the unweighted RMS of the Hann-windowed frame in dBFS
/// (a full-scale sine reads 0 dBFS); `dbSpl` is the A-weighted level (IEC 61672-1 curve applied per FFT bin) plus
/// the configured calibration. With 31.25 Hz bins, window leakage makes tones below about 100 Hz read high; use
/// `SoundLevelAnalysis` for class-1 measurements. Backed by `sa_front_end` (one FFTW plan, sparse mel bank, no
/// allocation per frame). Not thread-safe: use one instance from one task.
package final class FrontEnd {
    /// The frame and feature definition.
    package let configuration: FrontEndConfiguration

    private var handle: OpaquePointer?

    /// Sets up the front end (window, mel bank and A-weighting computed from the sample rate).
    ///
    /// - Parameter configuration: the frame definition; `.standard` for the engines.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a non-positive rate, bad sizes or band edges.
    package init(configuration: FrontEndConfiguration = .standard) throws {
        self.configuration = configuration
        guard configuration.fftSize >= 2, configuration.hopSize >= 1, configuration.melBandCount >= 1 else {
            throw SleepCycleSdkError.invalidConfiguration("front end: FFT size, hop and band count must be positive")
        }
        var config = sa_front_end_config(
            sample_rate: configuration.sampleRate,
            fft_size: configuration.fftSize,
            hop_size: configuration.hopSize,
            mel_band_count: configuration.melBandCount,
            mel_low_hz: configuration.melLowHz,
            mel_high_hz: configuration.melHighHz,
            log_floor: configuration.logFloor,
            level_offset_db: configuration.calibration.offsetDb)
        var created: OpaquePointer?
        try DSPStatus.check(sa_front_end_init(&config, &created), "front end set-up")
        handle = created
    }

    deinit {
        sa_front_end_destroy(&handle)
    }

    /// Frames completed since the stream began.
    var frameCount: Int64 { sa_front_end_frame_count(handle) }

    /// Feeds samples (mono, at the configured rate, any block size) and returns the frames they complete.
    ///
    /// - Parameter samples: the next samples of the stream, in −1...1.
    /// - Returns: the completed frames; `firstFrameIndex` counts from the stream start.
    package func process(_ samples: [Float]) -> FeatureBlock {
        let first = frameCount
        let expected = sa_front_end_frames_for(handle, samples.count)
        let bands = configuration.melBandCount
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
        assert(status == SA_OK && written == expected, "sa_front_end_process: \(DSPStatus.message(status))")
        return FeatureBlock(
            firstFrameIndex: first, frameCount: written, melBandCount: bands, logMel: logMel, dbSpl: dbSpl, dbfs: dbfs)
    }
}

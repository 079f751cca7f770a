import Foundation

/// The audio front end: streams mono samples in, gives log-mel band energies and levels per 10 ms frame.
///
/// Streaming: history is kept across calls, so the frames (and every number in them) are the same however the
/// input is split into blocks. Levels per frame: `dbfs` is the unweighted RMS of the Hann-windowed frame in dBFS
/// (a full-scale sine reads 0 dBFS); `dbSpl` is the A-weighted level (IEC 61672-1 curve applied per FFT bin) plus
/// the configured calibration. With 31.25 Hz bins, window leakage makes tones below about 100 Hz read high; use
/// `SoundLevelAnalysis` for class-1 measurements. Backed by `DSPFrontEndHandle` (`sa_front_end`: one FFTW plan, sparse mel bank, no
/// allocation per frame). Not thread-safe: use one instance from one task.
package final class FrontEnd {
    /// The frame and feature definition.
    package let configuration: FrontEndConfiguration

    private let handle: DSPFrontEndHandle

    /// Sets up the front end (window, mel bank and A-weighting computed from the sample rate).
    ///
    /// - Parameter configuration: the frame definition; `.standard` for the engines.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a non-positive rate, bad sizes or band edges.
    package init(configuration: FrontEndConfiguration = .standard) throws {
        self.configuration = configuration
        guard configuration.fftSize >= 2, configuration.hopSize >= 1, configuration.melBandCount >= 1 else {
            throw SleepCycleSdkError.invalidConfiguration("front end: FFT size, hop and band count must be positive")
        }
        do throws(DSPError) {
            handle = try DSPFrontEndHandle(
                sampleRate: configuration.sampleRate, fftSize: configuration.fftSize, hopSize: configuration.hopSize,
                melBandCount: configuration.melBandCount, melLowHz: configuration.melLowHz,
                melHighHz: configuration.melHighHz, logFloor: configuration.logFloor,
                levelOffsetDb: configuration.calibration.offsetDb)
        } catch {
            throw error.sdkError
        }
    }

    /// Frames completed since the stream began.
    var frameCount: Int64 { handle.frameCount }

    /// Feeds samples (mono, at the configured rate, any block size) and returns the frames they complete.
    ///
    /// - Parameter samples: the next samples of the stream, in −1...1.
    /// - Returns: the completed frames; `firstFrameIndex` counts from the stream start.
    package func process(_ samples: [Float]) -> FeatureBlock {
        let first = frameCount
        let frames = handle.process(samples)
        return FeatureBlock(
            firstFrameIndex: first, frameCount: frames.count, melBandCount: configuration.melBandCount,
            logMel: frames.logMel, dbSpl: frames.dbSpl, dbfs: frames.dbfs)
    }
}

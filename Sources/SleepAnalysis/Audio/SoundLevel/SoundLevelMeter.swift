import Foundation

/// Streams one channel at its own sample rate and gives the A-weighted and unweighted mean square per frame.
///
/// Backed by `DSPLevelMeterHandle` (`sa_level_meter`): Hann window, IEC 61672-1 A-weighting per FFT bin. With the
/// default one-second window (bins of 1 Hz) the response is inside the class-1 limits from 10 Hz to 0.9 × Nyquist
/// at any rate. Not thread-safe: use one instance from one task.
final class SoundLevelMeter {
    /// A frame's mean squares in full-scale units (dBFS = 10·log10(2·ms)).
    struct Frame: Sendable, Hashable {
        /// A-weighted mean square.
        var aWeighted: Double
        /// Unweighted mean square.
        var unweighted: Double
    }

    /// Samples per second.
    let sampleRate: Double
    /// Window length (samples).
    let windowSize: Int
    /// Samples between frame ends.
    let hopSize: Int

    private let handle: DSPLevelMeterHandle

    /// Sets up a meter.
    ///
    /// - Parameters:
    ///   - sampleRate: the signal's rate (1 Hz ... 1 MHz).
    ///   - windowSize: window length; nil for one second (rounded to even).
    ///   - hopSize: samples between frames; nil for half the window.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a bad rate or size.
    init(sampleRate: Double, windowSize: Int? = nil, hopSize: Int? = nil) throws {
        guard sampleRate.isFinite, sampleRate >= 1 else {
            throw SleepCycleSdkError.invalidConfiguration("sound level meter: sample rate \(sampleRate) Hz")
        }
        let window = windowSize ?? max(2, 2 * Int((sampleRate / 2).rounded()))
        let hop = hopSize ?? max(1, window / 2)
        guard window >= 2, hop >= 1 else {
            throw SleepCycleSdkError.invalidConfiguration("sound level meter: window ≥ 2 and hop ≥ 1 expected")
        }
        self.sampleRate = sampleRate
        self.windowSize = window
        self.hopSize = hop
        do throws(DSPError) {
            handle = try DSPLevelMeterHandle(sampleRate: sampleRate, windowSize: window, hopSize: hop)
        } catch {
            throw error.sdkError
        }
    }

    /// Feeds the next samples and returns the frames they complete.
    ///
    /// - Parameter samples: mono samples in −1...1.
    /// - Returns: one `Frame` per completed frame.
    func process(_ samples: [Float]) -> [Frame] {
        let (weighted, flat) = handle.process(samples)
        return weighted.indices.map { Frame(aWeighted: weighted[$0], unweighted: flat[$0]) }
    }

    /// Completes a last, partial frame from the samples fed since the last frame (nil when there are none).
    func flush() -> Frame? {
        handle.flush().map { Frame(aWeighted: $0.aWeighted, unweighted: $0.unweighted) }
    }
}

import CSleepDSP
import Foundation

/// Streams one channel at its own sample rate and gives the A-weighted and unweighted mean square per frame.
///
/// Backed by `sa_level_meter`: Hann window, IEC 61672-1 A-weighting per FFT bin. With the default one-second
/// window (bins of 1 Hz) the response is inside the class-1 limits from 10 Hz to 0.9 × Nyquist at any rate.
/// Not thread-safe: use one instance from one task.
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

    private var handle: OpaquePointer?

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
        var created: OpaquePointer?
        try DSPStatus.check(sa_level_meter_init(sampleRate, window, hop, &created), "sound level meter set-up")
        handle = created
    }

    deinit {
        sa_level_meter_destroy(&handle)
    }

    /// Feeds the next samples and returns the frames they complete.
    ///
    /// - Parameter samples: mono samples in −1...1.
    /// - Returns: one `Frame` per completed frame.
    func process(_ samples: [Float]) -> [Frame] {
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
        assert(status == SA_OK && written == expected, "sa_level_meter_process: \(DSPStatus.message(status))")
        return (0..<written).map { Frame(aWeighted: weighted[$0], unweighted: flat[$0]) }
    }

    /// Completes a last, partial frame from the samples fed since the last frame (nil when there are none).
    func flush() -> Frame? {
        var weighted = 0.0
        var flat = 0.0
        var written = 0
        let status = sa_level_meter_flush(handle, &weighted, &flat, &written)
        assert(status == SA_OK, "sa_level_meter_flush: \(DSPStatus.message(status))")
        return written == 1 ? Frame(aWeighted: weighted, unweighted: flat) : nil
    }
}

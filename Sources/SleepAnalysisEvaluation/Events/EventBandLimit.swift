import Foundation
import SleepAnalysis

/// A band-limited copy of a training clip, as a telephone-band microphone, a Bluetooth headset or a low-rate file
/// would deliver it: nothing (or almost nothing) above 4 kHz, or (`opus`) a wideband low-bit-rate codec's coarse
/// copy. The feature export makes these copies of the clips so the event classifier learns events without their
/// upper band (`sleepanalysis features events --band-limit`); the clip evaluation scores them
/// (`sleepanalysis evaluate events --band-limit`).
package enum EventBandLimit: String, Sendable, CaseIterable {
    /// Down to 8 kHz and back to 16 kHz through the package's own resampler (libsoxr, high quality), as an 8-kHz
    /// recording reaches the analysis.
    case resampled8kHz = "8k"
    /// A linear-phase low-pass at 16 kHz (windowed-sinc FIR, Blackman window, 129 taps, cut-off 3.7 kHz; about
    /// −74 dB from 4.1 kHz up), as a codec or a cheap microphone that keeps the 16-kHz rate but drops the top.
    case lowPass4kHz = "4k"
    /// Through an Ogg Opus file at 16 kHz aiming at 12 kbit/s (`opusBitsPerSecond`) and back, as a VoIP call or a
    /// headset link codes speech: libopus keeps the wideband (up to 8 kHz) at this rate but codes it coarsely
    /// (encoded by libsndfile, decoded by the package's reader; the temporary file is removed).
    case opus = "opus"

    /// The Opus copy's target bit rate.
    package static let opusBitsPerSecond = 12_000

    /// The copy of `samples`, the same length.
    ///
    /// - Parameter samples: Mono 16 kHz samples.
    /// - Returns: The band-limited samples, as many as given.
    /// - Throws: `SleepCycleSdkError.dataSourceFailure` when the resampler fails; for `opus`, `.invalidInput` for
    ///   no samples or a non-finite one and `.storageFailure` when the temporary file cannot be written.
    package func apply(to samples: [Float]) throws -> [Float] {
        let copy: [Float]
        switch self {
        case .resampled8kHz:
            let rate = Double(AudioBatch.sampleRate)
            let down = try Resampler(inputRate: rate, outputRate: 8_000, channelCount: 1)
            let up = try Resampler(inputRate: 8_000, outputRate: rate, channelCount: 1)
            let narrow = try down.process(samples) + down.flush()
            copy = try up.process(narrow) + up.flush()
        case .lowPass4kHz:
            copy = Self.filtered(samples, Self.lowPassTaps)
        case .opus:
            copy = try OpusRoundTrip(bitsPerSecond: Self.opusBitsPerSecond).apply(to: samples).samples
        }
        if copy.count >= samples.count { return Array(copy.prefix(samples.count)) }
        return copy + [Float](repeating: 0, count: samples.count - copy.count)
    }

    /// The low-pass filter: a Blackman-windowed sinc, normalised to unit gain at 0 Hz.
    static let lowPassTaps: [Float] = {
        let count = 129
        let cutoff = 3_700.0 / Double(AudioBatch.sampleRate)
        let middle = Double(count - 1) / 2
        var taps = (0..<count).map { index -> Double in
            let t = Double(index) - middle
            let sinc = t == 0 ? 2 * cutoff : sin(2 * .pi * cutoff * t) / (.pi * t)
            let phase = 2 * .pi * Double(index) / Double(count - 1)
            return sinc * (0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase))
        }
        let sum = taps.reduce(0, +)
        taps = taps.map { $0 / sum }
        return taps.map(Float.init)
    }()

    /// `samples` convolved with the symmetric `taps`, centred (no delay), zeros beyond the ends.
    static func filtered(_ samples: [Float], _ taps: [Float]) -> [Float] {
        let half = taps.count / 2
        var output = [Float](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { input in
            taps.withUnsafeBufferPointer { filter in
                for index in 0..<input.count {
                    var sum: Float = 0
                    let first = max(0, half - index)
                    let last = min(filter.count, input.count - index + half)
                    if first < last {
                        for tap in first..<last { sum += filter[tap] * input[index + tap - half] }
                    }
                    output[index] = sum
                }
            }
        }
        return output
    }
}

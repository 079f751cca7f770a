import Foundation

/// Counts the samples a recording clipped: a microphone whose gain is set too high, or a sound louder than the input
/// can take, flattens the waveform at full scale, so loud sounds are distorted there and their level reads low.
///
/// A sample counts as clipped when it lies on a full-scale plateau: at least ``level`` in magnitude and equal to the
/// sample of its channel one frame earlier. A waveform that merely reaches full scale does not stay there for two
/// samples running; one cut off by the converter does. The check reads the samples as they arrive, before any
/// resampling (which would round the plateaus off), so it finds clipping in PCM and float files and in live
/// capture; a lossy codec such as Opus smooths the plateaus away, and clipping before it is not seen.
package struct ClippingMonitor {
    /// The magnitude a plateau must reach: full scale for 16- and 24-bit PCM and floats, within 1 % so that 8-bit
    /// PCM (whose largest positive sample is 127/128) counts too.
    package static let level: Float = 0.99
    /// Clipped samples, over every channel, from which the recording is reported as clipped.
    package static let reportedFrom = 100

    private var previous: [Float] = []
    /// Clipped samples so far, over every channel.
    package private(set) var clippedSamples = 0
    /// Samples read so far, over every channel.
    package private(set) var samples = 0

    /// A monitor before any audio.
    package init() {}

    /// Reads the next interleaved samples (after non-finite values were repaired).
    ///
    /// - Parameters:
    ///   - chunk: Interleaved samples, `channelCount` per frame.
    ///   - channelCount: Channels per frame; a change of count starts the comparison afresh.
    package mutating func add(_ chunk: [Float], channelCount: Int) {
        guard channelCount > 0 else { return }
        if previous.count != channelCount { previous = Array(repeating: .nan, count: channelCount) }
        clippedSamples += DSPSampleChecks.fullScalePlateauCount(chunk, level: Self.level, previous: &previous)
        samples += chunk.count / channelCount * channelCount
    }

    /// True once enough samples clipped to be worth reporting (``reportedFrom``).
    package var isClipped: Bool { clippedSamples >= Self.reportedFrom }
}

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
    /// Clipped samples from which a recording (or, for two sleepers, a sleeper's channel) is reported as clipped.
    package static let reportedFrom = 100

    private var previous: [Float] = []
    /// Clipped samples so far, per channel of the input.
    package private(set) var clippedByChannel: [Int] = []
    /// Frames read so far.
    package private(set) var frames = 0

    /// A monitor before any audio.
    package init() {}

    /// Clipped samples so far, over every channel.
    package var clippedSamples: Int { clippedByChannel.reduce(0, +) }

    /// Reads the next interleaved samples (after non-finite values were repaired).
    ///
    /// - Parameters:
    ///   - chunk: Interleaved samples, `channelCount` per frame.
    ///   - channelCount: Channels per frame; a change of count starts the comparison afresh.
    package mutating func add(_ chunk: [Float], channelCount: Int) {
        guard channelCount > 0 else { return }
        if previous.count != channelCount {
            previous = Array(repeating: .nan, count: channelCount)
            clippedByChannel += Array(repeating: 0, count: max(0, channelCount - clippedByChannel.count))
        }
        var counts = Array(clippedByChannel.prefix(channelCount))
        DSPSampleChecks.fullScalePlateauCounts(chunk, level: Self.level, previous: &previous, counts: &counts)
        clippedByChannel.replaceSubrange(0..<channelCount, with: counts)
        frames += chunk.count / channelCount
    }

    /// The clipped samples of `channel` (nil: of every channel) and the samples they are counted among, when they
    /// are enough to be worth reporting (``reportedFrom``); nil otherwise.
    ///
    /// - Parameter channel: A channel of the input, or nil for all of them; a channel past the input's last (a mono
    ///   input whose one channel both sleepers' sessions read) stands for the last.
    /// - Returns: The clipped samples and the samples read, or nil.
    package func clipping(channel: Int?) -> (clipped: Int, samples: Int)? {
        let clipped: Int
        let samples: Int
        if let channel {
            guard channel >= 0, let last = clippedByChannel.indices.last else { return nil }
            clipped = clippedByChannel[min(channel, last)]
            samples = frames
        } else {
            clipped = clippedSamples
            samples = frames * max(1, clippedByChannel.count)
        }
        return clipped >= Self.reportedFrom ? (clipped, samples) : nil
    }
}

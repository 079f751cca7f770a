import Foundation
import SleepAnalysis

/// A deterministic synthetic bedroom night: quiet noise, breathing-like swells every 4 s, and a snore-like burst
/// (a buzz at 110 Hz with harmonics) for 1.5 s every 40 s. Used by the benchmark and by tests that need a long
/// file; not a model of real sleep. A stereo night has the same sounds in both channels over noise of its own
/// (another seed), like two microphones in one room.
package enum SyntheticNight {
    /// Audio container formats `write` makes.
    package enum Format: String, Sendable, CaseIterable {
        /// RIFF WAVE, 16-bit PCM.
        case wav
        /// FLAC, 16-bit.
        case flac
    }

    /// Writes a synthetic night (16-bit) through `AudioFileWriter`, in one-second blocks.
    ///
    /// - Parameters:
    ///   - url: where to write (replaced if present).
    ///   - duration: length (s).
    ///   - sampleRate: frames per second.
    ///   - format: the container.
    ///   - channelCount: 1 (mono) or 2 (stereo; channel 2's noise has the seed `seed + 1`).
    ///   - seed: the noise generator's seed (same seed, same file).
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a non-positive duration or rate or another channel
    ///   count, `.storageFailure` when the file cannot be written.
    package static func write(
        to url: URL, duration: Double, sampleRate: Int, format: Format, channelCount: Int = 1, seed: UInt64 = 1
    )
        throws
    {
        guard duration > 0, duration.isFinite else {
            throw SleepCycleSdkError.invalidConfiguration("synthetic night: duration \(duration) s")
        }
        guard channelCount == 1 || channelCount == 2 else {
            throw SleepCycleSdkError.invalidConfiguration("synthetic night: \(channelCount) channels (1 or 2)")
        }
        let writer = try AudioFileWriter(
            url: url, sampleRate: sampleRate, channelCount: channelCount, format: format == .wav ? .wav16 : .flac16)
        var generators = (0..<channelCount).map {
            Generator(sampleRate: Double(sampleRate), seed: seed + UInt64($0))
        }
        var remaining = Int((duration * Double(sampleRate)).rounded())
        var block = [Float](repeating: 0, count: sampleRate)
        var interleaved = [Float]()
        while remaining > 0 {
            let count = min(remaining, sampleRate)
            if count < block.count { block.removeLast(block.count - count) }
            if channelCount == 1 {
                generators[0].fill(&block)
                try writer.write(block)
            } else {
                interleaved = [Float](repeating: 0, count: count * channelCount)
                for channel in 0..<channelCount {
                    generators[channel].fill(&block)
                    for frame in 0..<count { interleaved[frame * channelCount + channel] = block[frame] }
                }
                try writer.write(interleaved)
            }
            remaining -= count
        }
        try writer.close()
    }

    /// The signal, sample by sample.
    private struct Generator {
        let sampleRate: Double
        var state: UInt64
        var index = 0
        var lowPassed: Float = 0

        init(sampleRate: Double, seed: UInt64) {
            self.sampleRate = sampleRate
            state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        }

        /// A uniform value in −1...1 (xorshift64*).
        mutating func noise() -> Float {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            let value = (state &* 0x2545_F491_4F6C_DD1D) >> 40
            return Float(value) / Float(1 << 23) - 1
        }

        mutating func fill(_ block: inout [Float]) {
            for i in block.indices {
                let t = Double(index) / sampleRate
                lowPassed += 0.05 * (noise() - lowPassed)
                let breathing = Float(0.5 + 0.5 * sin(2 * Double.pi * t / 4))
                var sample = 0.002 * noise() + 0.01 * breathing * lowPassed
                let cycle = t.truncatingRemainder(dividingBy: 40)
                if cycle < 1.5 {
                    let envelope = Float(sin(Double.pi * cycle / 1.5))
                    let phase = 2 * Double.pi * 110 * t
                    sample += 0.05 * envelope * Float(sin(phase) + 0.5 * sin(2 * phase) + 0.25 * sin(3 * phase))
                }
                block[i] = sample
                index += 1
            }
        }
    }
}

import CSoxr
import Foundation
import SleepAnalysis

/// Reads a labelled clip for evaluation or feature export: mono (channels averaged), resampled to 16 kHz with
/// libsoxr (high quality) when recorded at another rate, and centred in
/// silence up to one second when shorter (the training tool does the same, so short clips such as single
/// words or coughs fill a whole analysis window).
enum EventClipAudio {
    /// Clips shorter than this (seconds) are centred in zeros to this length.
    static let minimumSeconds = 1.0

    /// Loads a clip.
    ///
    /// - Parameter url: An audio file libsndfile reads.
    /// - Returns: Mono samples at 16 kHz, at least one second.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the file cannot be read or resampled.
    static func load(_ url: URL) throws -> [Float] {
        let reader = try AudioFileReader(url: url)
        var samples: [Float] = []
        // The header's count, bounded: a forged header must not reserve gigabytes before anything is read.
        samples.reserveCapacity(Int(min(reader.frameCount, 16_000 * 3_600)))
        while let block = try reader.readMono(maxFrames: 65_536) { samples.append(contentsOf: block) }
        if Int(reader.sampleRate) != AudioBatch.sampleRate {
            samples = try resampled(samples, from: reader.sampleRate, url: url)
        }
        return padded(samples)
    }

    /// Resamples mono samples to 16 kHz (`soxr_oneshot`, high quality).
    private static func resampled(_ samples: [Float], from rate: Double, url: URL) throws -> [Float] {
        let target = Double(AudioBatch.sampleRate)
        var output = [Float](repeating: 0, count: Int((Double(samples.count) * target / rate).rounded(.up)) + 16)
        var written = 0
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let error = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                soxr_oneshot(
                    rate, target, 1, input.baseAddress, samples.count, nil, out.baseAddress, out.count,
                    &written, nil, &quality, nil)
            }
        }
        if let error {
            throw SleepCycleSdkError.invalidInput("\(url.path): resampling failed (\(String(cString: error)))")
        }
        return Array(output.prefix(written))
    }

    /// Centres `samples` in zeros up to `minimumSeconds`.
    static func padded(_ samples: [Float]) -> [Float] {
        let need = Int(minimumSeconds * Double(AudioBatch.sampleRate))
        guard samples.count < need else { return samples }
        let left = (need - samples.count) / 2
        return [Float](repeating: 0, count: left) + samples + [Float](repeating: 0, count: need - samples.count - left)
    }
}

import Foundation

/// Reads a labelled clip for evaluation or feature export: mono (channels averaged), 16 kHz, and centred in
/// silence up to one second when shorter (the training tool does the same, so short clips such as single
/// words or coughs fill a whole analysis window).
enum EventClipAudio {
    /// Clips shorter than this (seconds) are centred in zeros to this length.
    static let minimumSeconds = 1.0

    /// Loads a clip.
    ///
    /// - Parameter url: An audio file libsndfile reads, at 16 kHz.
    /// - Returns: Mono samples at 16 kHz, at least one second.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the file cannot be read or is not at 16 kHz.
    static func load(_ url: URL) throws -> [Float] {
        let reader = try AudioFileReader(url: url)
        guard Int(reader.sampleRate) == AudioBatch.sampleRate else {
            throw SleepCycleSdkError.invalidInput(
                "\(url.path): \(Int(reader.sampleRate)) Hz; clips must be \(AudioBatch.sampleRate) Hz mono")
        }
        var samples: [Float] = []
        samples.reserveCapacity(Int(reader.frameCount))
        while let block = try reader.read(maxFrames: 65_536) {
            if reader.channelCount == 1 {
                samples.append(contentsOf: block)
            } else {
                let channels = reader.channelCount
                for frame in 0..<(block.count / channels) {
                    var sum: Float = 0
                    for channel in 0..<channels { sum += block[frame * channels + channel] }
                    samples.append(sum / Float(channels))
                }
            }
        }
        return padded(samples)
    }

    /// Centres `samples` in zeros up to `minimumSeconds`.
    static func padded(_ samples: [Float]) -> [Float] {
        let need = Int(minimumSeconds * Double(AudioBatch.sampleRate))
        guard samples.count < need else { return samples }
        let left = (need - samples.count) / 2
        return [Float](repeating: 0, count: left) + samples + [Float](repeating: 0, count: need - samples.count - left)
    }
}

import Foundation
import SleepAnalysis

/// Mono 16 kHz samples through a low-bit-rate Ogg Opus file and back, as a VoIP call or a headset link would
/// deliver them: encoded by libsndfile (`AudioFileWriter`), decoded by the package's own reader
/// (`AudioFileReader`), the file removed afterwards.
struct OpusRoundTrip {
    /// The encoder's target, bits per second (`AudioFileWriter.Format.oggOpus`).
    let bitsPerSecond: Int
    /// Where the temporary file goes.
    let temporaryDirectory: URL

    /// The decoded samples and the size of the file they came from.
    struct Result {
        /// As many samples as were given (the decoder's tail trimmed or padded with zeros).
        let samples: [Float]
        /// The whole file's size (Ogg pages and Opus headers included) in bits per second of audio.
        let fileBitsPerSecond: Double
    }

    /// A round trip aiming at `bitsPerSecond`, its file written under `temporaryDirectory`.
    init(bitsPerSecond: Int, temporaryDirectory: URL = FileManager.default.temporaryDirectory) {
        self.bitsPerSecond = bitsPerSecond
        self.temporaryDirectory = temporaryDirectory
    }

    /// Encodes `samples` and decodes them again.
    ///
    /// - Parameter samples: Mono 16 kHz samples in −1...1.
    /// - Returns: The decoded copy and the file's bit rate.
    /// - Throws: `SleepCycleSdkError.invalidInput` for no samples or a non-finite sample,
    ///   `.invalidConfiguration` for a bit rate libsndfile's Opus encoder refuses, `.storageFailure` when the
    ///   temporary file cannot be written, and the reader's errors when it cannot be decoded.
    func apply(to samples: [Float]) throws -> Result {
        guard !samples.isEmpty else { throw SleepCycleSdkError.invalidInput("no samples to encode") }
        let url = temporaryDirectory.appendingPathComponent("sleepanalysis-opus-\(UUID().uuidString).opus")
        defer { try? FileManager.default.removeItem(at: url) }
        let format = AudioFileWriter.Format.oggOpus(bitsPerSecond: bitsPerSecond)
        let writer = try AudioFileWriter(url: url, sampleRate: AudioBatch.sampleRate, channelCount: 1, format: format)
        try writer.write(samples)
        try writer.close()
        let bytes = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        let reader = try AudioFileReader(url: url)
        var decoded: [Float] = []
        decoded.reserveCapacity(samples.count)
        while let block = try reader.readMono(maxFrames: 65_536) { decoded.append(contentsOf: block) }
        if decoded.count >= samples.count {
            decoded.removeLast(decoded.count - samples.count)
        } else {
            decoded += [Float](repeating: 0, count: samples.count - decoded.count)
        }
        let seconds = Double(samples.count) / Double(AudioBatch.sampleRate)
        return Result(samples: decoded, fileBitsPerSecond: Double(bytes * 8) / seconds)
    }
}

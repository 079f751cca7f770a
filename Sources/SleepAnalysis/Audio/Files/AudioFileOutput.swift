import Foundation

/// Writes mono audio to a file, the format chosen by the file's extension (`.flac`, `.ogg`, else 16-bit WAV):
/// for example the analysed audio of a live session, from an `AudioEventListener`.
///
/// Use it from one thread; `close()` finishes the file.
public final class AudioFileOutput: @unchecked Sendable {
    // Guarded by use from one thread, as documented.
    private let writer: AudioFileWriter

    /// Creates (or replaces) the file.
    ///
    /// - Parameters:
    ///   - url: Where to write.
    ///   - sampleRate: Samples per second.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the file cannot be created,
    ///   `.invalidConfiguration` for a rate libsndfile rejects.
    public init(url: URL, sampleRate: Int) throws {
        let format: AudioFileWriter.Format
        switch url.pathExtension.lowercased() {
        case "flac": format = .flac16
        case "ogg", "oga": format = .oggVorbis
        default: format = .wav16
        }
        writer = try AudioFileWriter(url: url, sampleRate: sampleRate, channelCount: 1, format: format)
    }

    /// Appends samples (−1...1).
    ///
    /// - Parameter samples: Mono samples at the file's rate.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the write fails.
    public func write(_ samples: [Float]) throws { try writer.write(samples) }

    /// Finishes the file.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the file cannot be completed.
    public func close() throws { try writer.close() }
}

import CSndFile
import Foundation

/// Writes an audio file in blocks through libsndfile (16-bit PCM in WAV or FLAC).
///
/// Not thread-safe: use it from one thread. Call `close()` to finish the file and see write errors.
final class AudioFileWriter {
    /// Container formats the writer makes.
    enum Format: String, Sendable, CaseIterable {
        /// RIFF WAVE, 16-bit PCM.
        case wav
        /// FLAC, 16-bit.
        case flac

        var libsndfileFormat: Int32 {
            switch self {
            case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            }
        }
    }

    /// The file being written.
    let url: URL
    /// Channels per frame.
    let channelCount: Int

    private var handle: OpaquePointer?

    /// Creates (or replaces) `url`.
    ///
    /// - Parameters:
    ///   - url: where to write.
    ///   - format: the container.
    ///   - sampleRate: frames per second (integral, > 0).
    ///   - channelCount: 1 or 2.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a bad rate or channel count;
    ///   `.storageFailure` when `sf_open` cannot create the file.
    init(url: URL, format: Format, sampleRate: Int, channelCount: Int) throws {
        guard sampleRate > 0, (1...2).contains(channelCount) else {
            throw SleepCycleSdkError.invalidConfiguration(
                "audio writer: \(sampleRate) Hz, \(channelCount) channels; a positive rate and 1 or 2 channels expected")
        }
        self.url = url
        self.channelCount = channelCount
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channelCount)
        info.format = format.libsndfileFormat
        guard let handle = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw SleepCycleSdkError.storageFailure(
                "\(url.path): cannot create audio file (\(String(cString: sf_strerror(nil))))")
        }
        // Clip instead of wrapping when a float sample is outside −1...1.
        sf_command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        self.handle = handle
    }

    deinit {
        if let handle { sf_close(handle) }
    }

    /// Appends interleaved frames.
    ///
    /// - Parameter interleaved: samples in −1...1, a whole number of frames.
    /// - Throws: `SleepCycleSdkError.invalidInput` for a partial frame, `.storageFailure` when the write fails.
    func write(_ interleaved: [Float]) throws {
        guard let handle else { throw SleepCycleSdkError.storageFailure("\(url.path): writer already closed") }
        guard interleaved.count % channelCount == 0 else {
            throw SleepCycleSdkError.invalidInput("audio writer: partial frame (\(interleaved.count) samples)")
        }
        let frames = interleaved.count / channelCount
        let written = interleaved.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        guard written == frames else {
            throw SleepCycleSdkError.storageFailure(
                "\(url.path): write failed (\(String(cString: sf_strerror(handle))))")
        }
    }

    /// Finishes the file.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when `sf_close` reports an error.
    func close() throws {
        guard let handle else { return }
        self.handle = nil
        let status = sf_close(handle)
        guard status == 0 else {
            throw SleepCycleSdkError.storageFailure("\(url.path): closing failed (\(String(cString: sf_error_number(status))))")
        }
    }
}

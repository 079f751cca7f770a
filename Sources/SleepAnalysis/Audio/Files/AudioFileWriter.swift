import CSndFile
import Foundation

/// Writes an audio file through libsndfile, in blocks: for test fixtures, the fixture generator, benchmarks and the
/// codec copies of training clips.
///
/// Not thread-safe: use it from one thread. Call `close()` to finish the file (the header is finalised there);
/// `deinit` closes it too, ignoring errors.
package final class AudioFileWriter {
    /// A container and sample encoding.
    package enum Format: Sendable {
        /// RIFF/WAVE, 16-bit signed integers (RF64 once the file passes 4 GiB, which RIFF sizes cannot count).
        case wav16
        /// RIFF/WAVE, 32-bit floats (RF64 past 4 GiB).
        case wavFloat
        /// FLAC, 16-bit.
        case flac16
        /// Ogg Vorbis (lossy).
        case oggVorbis
        /// Ogg Opus (lossy) aiming at `bitsPerSecond` per channel (`opusBitRates`): libopus's own variable bit
        /// rate around that target (libsndfile 1.2 sets no other mode for Opus), at 8, 12, 16, 24 or 48 kHz.
        case oggOpus(bitsPerSecond: Int)

        /// The Opus target bit rates libsndfile accepts, per channel.
        package static let opusBitRates = 6_000...256_000

        /// The usual file name extension.
        var fileExtension: String {
            switch self {
            case .wav16, .wavFloat: "wav"
            case .flac16: "flac"
            case .oggVorbis: "ogg"
            case .oggOpus: "opus"
            }
        }

        var libsndfileFormat: Int32 {
            switch self {
            // Written as RF64 and turned into plain RIFF/WAVE on closing when under 4 GiB (`SFC_RF64_AUTO_DOWNGRADE`):
            // a longer file in RIFF would carry sizes wrapped past 2^32, and readers would stop early without a word.
            case .wav16: Int32(SF_FORMAT_RF64 | SF_FORMAT_PCM_16)
            case .wavFloat: Int32(SF_FORMAT_RF64 | SF_FORMAT_FLOAT)
            case .flac16: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
            case .oggVorbis: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
            case .oggOpus: Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
            }
        }

        /// libsndfile's compression level for an Opus target: it maps level L to (1 − L) × 250,000 + 6,000 bit/s
        /// per channel, truncated, so half a bit is added to land on `bitsPerSecond` exactly.
        static func opusCompressionLevel(bitsPerSecond: Int) -> Double {
            1 - (Double(bitsPerSecond - opusBitRates.lowerBound) + 0.5) / 250_000
        }
    }

    /// The file being written.
    let url: URL
    /// Channels per frame.
    let channelCount: Int
    /// The container and encoding.
    let format: Format
    /// Frames written so far.
    private(set) var framesWritten: Int64 = 0

    private var handle: OpaquePointer?

    /// Creates (or replaces) the file at `url`.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` when libsndfile rejects the rate, channel count, format
    ///   or Opus bit rate, `.storageFailure` when the file cannot be created (`sf_open` does the work).
    package init(url: URL, sampleRate: Int, channelCount: Int, format: Format) throws {
        self.url = url
        self.channelCount = channelCount
        self.format = format
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channelCount)
        info.format = format.libsndfileFormat
        guard sampleRate > 0, channelCount > 0, sf_format_check(&info) != 0 else {
            throw SleepCycleSdkError.invalidConfiguration(
                "\(url.path): libsndfile cannot write \(format) at \(sampleRate) Hz with \(channelCount) channels")
        }
        if case .oggOpus(let bitsPerSecond) = format, !Format.opusBitRates.contains(bitsPerSecond) {
            throw SleepCycleSdkError.invalidConfiguration(
                "\(url.path): an Opus bit rate of \(bitsPerSecond) bit/s is outside \(Format.opusBitRates)")
        }
        guard let handle = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw SleepCycleSdkError.storageFailure("\(url.path): cannot create (\(String(cString: sf_strerror(nil))))")
        }
        self.handle = handle
        switch format {
        case .wav16, .wavFloat: try downgradeToRiffWhenSmall(handle)
        case .flac16, .oggVorbis, .oggOpus: break
        }
        if case .oggOpus(let bitsPerSecond) = format {
            var level = Format.opusCompressionLevel(bitsPerSecond: bitsPerSecond)
            let size = Int32(MemoryLayout<Double>.size)
            guard sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &level, size) == SF_TRUE else {
                try? close()
                try? FileManager.default.removeItem(at: url)
                throw SleepCycleSdkError.invalidConfiguration(
                    "\(url.path): libsndfile did not take the Opus bit rate \(bitsPerSecond) bit/s")
            }
        }
    }

    deinit {
        if let handle { sf_close(handle) }
    }

    /// Asks libsndfile to write an RF64 file as plain RIFF/WAVE when it closes under 4 GiB.
    private func downgradeToRiffWhenSmall(_ handle: OpaquePointer) throws {
        guard sf_command(handle, Int32(SFC_RF64_AUTO_DOWNGRADE), nil, Int32(SF_TRUE)) == SF_TRUE else {
            try? close()
            try? FileManager.default.removeItem(at: url)
            throw SleepCycleSdkError.invalidConfiguration("\(url.path): libsndfile cannot turn RF64 into RIFF/WAVE")
        }
    }

    /// Appends interleaved frames (values in -1...1; `samples.count` must be a multiple of `channelCount`).
    /// 16-bit formats store `round(x × 32768)` clamped to the 16-bit range, so `k / 32768` round-trips exactly.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` for a partial frame or a non-finite sample, `.storageFailure`
    ///   when fewer frames were written than given (`sf_writef_short` / `sf_writef_float`), or after `close()`.
    package func write(_ samples: [Float]) throws {
        guard let handle else { throw SleepCycleSdkError.storageFailure("\(url.path): already closed") }
        guard samples.count % channelCount == 0 else {
            throw SleepCycleSdkError.invalidInput("\(samples.count) samples is not a whole number of frames")
        }
        guard samples.allSatisfy(\.isFinite) else {
            throw SleepCycleSdkError.invalidInput("\(url.path): a sample is NaN or infinite")
        }
        let frames = samples.count / channelCount
        let written: sf_count_t
        switch format {
        case .wav16, .flac16:
            // libsndfile scales floats by 32767 on writing but by 1/32768 on reading; scaling by 32768 here makes
            // every 16-bit value (k / 32768) survive a write and a read exactly.
            let integers = samples.map { Int16(min(max(($0 * 32_768).rounded(), -32_768), 32_767)) }
            written = integers.withUnsafeBufferPointer { sf_writef_short(handle, $0.baseAddress, sf_count_t(frames)) }
        case .wavFloat, .oggVorbis, .oggOpus:
            written = samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        }
        guard written == frames else {
            let reason = String(cString: sf_strerror(handle))
            throw SleepCycleSdkError.storageFailure("\(url.path): wrote \(written) of \(frames) frames (\(reason))")
        }
        framesWritten += Int64(frames)
    }

    /// Finalises and closes the file.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when `sf_close` reports an error.
    package func close() throws {
        guard let handle else { return }
        self.handle = nil
        let status = sf_close(handle)
        guard status == 0 else {
            throw SleepCycleSdkError.storageFailure(
                "\(url.path): closing failed (\(String(cString: sf_error_number(status))))")
        }
    }
}

import CSndFile
import Foundation

/// Reads an audio file in blocks (WAV, FLAC, OGG, … mono or stereo, `minimumSampleRate` or more): Ogg Opus of
/// one stream through ``OggOpusDecoder``, everything else through libsndfile.
///
/// Memory is one block, whatever the file's length. Not thread-safe: use it from one thread.
package final class AudioFileReader {
    /// The lowest sample rate read (Hz): below it there is no breath or snore left to hear, and resampling to the
    /// analysis rate would multiply the samples more than sixteen times.
    package static let minimumSampleRate = 1_000.0
    /// The highest sample rate read (Hz), checked before anything is allocated for the file.
    package static let maximumSampleRate = 768_000.0
    /// The sample rates an analysis takes (Hz): below 4 kHz nothing of a snore or a voice is left, above 384 kHz is
    /// no microphone. The one rule for every source and command that analyses a night; other rates are refused
    /// before a session starts.
    package static let analysableSampleRates = 4_000.0...384_000.0

    /// The file being read.
    let url: URL
    /// Frames per second.
    package let sampleRate: Double
    /// Channels per frame.
    package let channelCount: Int
    /// Frames in the file: counted from the bytes of a WAVE, AIFF or AU file, as the header says for other
    /// formats; 0 when neither tells (a FLAC stream written to a pipe). The frames read may still differ (a FLAC
    /// header that under-states its audio): see `lengthDisagreement`.
    package var frameCount: Int64 { knownFrameCount ?? 0 }
    /// Frames in the file when known before reading: `frameCount`, or nil when neither the data nor the header
    /// tells.
    package let knownFrameCount: Int64?
    /// Frames in the file as its header says, or nil when it does not say.
    package let declaredFrameCount: Int64?
    /// After the last frame was read: the header's frame count and the frames the file held, when they differ
    /// (a header cut short or never finalised, a file cut off); nil before the end and when they agree.
    package private(set) var lengthDisagreement: (declared: Int64, read: Int64)?
    /// Frames read so far.
    package private(set) var framesRead: Int64 = 0
    /// Whether `read` digests the samples it returns into `content` (a replay does, to fingerprint its input).
    package var digestsContent = false
    /// The digest of the samples read so far (their float bit patterns, interleaved), when `digestsContent`.
    private(set) var content = ContentDigest()

    /// What decodes the file.
    private enum Decoder {
        /// libsndfile; 16-bit PCM files are read as integers and scaled here (2–3× faster than libsndfile's float
        /// conversion, same values: sample / 32768).
        case sndfile(OpaquePointer, isPcm16: Bool)
        /// Ogg Opus of channel-mapping family 0 (the same samples as libsndfile's, at a fraction of the CPU).
        case oggOpus(OggOpusDecoder)
    }

    private let decoder: Decoder
    /// The file libsndfile reads through when its header's length was patched, kept alive as long as the handle.
    private let patchedFile: HeaderPatchedFile?

    /// Opens `url` for reading.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when the file is missing, unreadable, of an unknown format,
    ///   a truncated Ogg Opus file, not a regular file (a FIFO would block), has no frames, more than two
    ///   channels, or a sample rate outside `minimumSampleRate...maximumSampleRate` (`sf_open` or
    ///   ``OggOpusDecoder`` does the work). A header that gives another length than the audio it holds (a WAVE
    ///   file cut off, a FLAC header never finalised) is not an error: the audio is read to its real end and
    ///   `lengthDisagreement` says so (``ContainerLength``).
    package init(url: URL) throws {
        self.url = url
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw SleepCycleSdkError.invalidInput("\(MessageText.path(url)): no such file")
        }
        if let kind = RegularFileCheck.specialKind(of: url.path) {
            throw SleepCycleSdkError.invalidInput("\(MessageText.path(url)): it is \(kind), not a regular audio file")
        }
        if let opus = try OggOpusDecoder.open(url) {
            try Self.check(url, sampleRate: opus.sampleRate, channels: opus.channelCount, frames: opus.frameCount)
            decoder = .oggOpus(opus)
            patchedFile = nil
            sampleRate = Double(opus.sampleRate)
            channelCount = opus.channelCount
            declaredFrameCount = opus.frameCount
            knownFrameCount = opus.frameCount
            return
        }
        var info = SF_INFO()
        // WAVE, AIFF, AU and FLAC files are read to the real end of their audio, whatever their header says.
        let container = ContainerLength.inspect(path: url.path)
        let patched = container.flatMap { found in
            found.patches.isEmpty ? nil : HeaderPatchedFile(path: url.path, patches: found.patches)
        }
        guard let handle = patched.map({ $0.open(&info) }) ?? sf_open(url.path, Int32(SFM_READ), &info) else {
            let reason = String(cString: sf_strerror(nil))
            throw SleepCycleSdkError.invalidInput("\(MessageText.path(url)): cannot read audio (\(reason))")
        }
        let declared = container.map(\.declaredFrames) ?? Int64(info.frames)
        let present = container?.presentFrames ?? declared
        do {
            try Self.check(url, sampleRate: Int(info.samplerate), channels: Int(info.channels), frames: present)
        } catch {
            sf_close(handle)
            throw error
        }
        decoder = .sndfile(handle, isPcm16: info.format & Int32(SF_FORMAT_SUBMASK) == Int32(SF_FORMAT_PCM_16))
        patchedFile = patched
        sampleRate = Double(info.samplerate)
        channelCount = Int(info.channels)
        declaredFrameCount = declared
        knownFrameCount = present
    }

    deinit {
        if case .sndfile(let handle, _) = decoder { sf_close(handle) }
    }

    /// Throws unless the file is mono or stereo, between `minimumSampleRate` and `maximumSampleRate`, and holds
    /// frames (or does not say how many): checked before anything is allocated for the file.
    private static func check(_ url: URL, sampleRate: Int, channels: Int, frames: Int64?) throws {
        guard sampleRate > 0, channels > 0 else {
            throw SleepCycleSdkError.invalidInput("\(MessageText.path(url)): zero sample rate or channel count")
        }
        guard Double(sampleRate) <= maximumSampleRate else {
            throw SleepCycleSdkError.invalidInput(
                "\(MessageText.path(url)): sample rate \(sampleRate) Hz is above \(Int(maximumSampleRate)) Hz: not "
                    + "a recording (a damaged or forged header)")
        }
        guard channels <= 2 else {
            throw SleepCycleSdkError.invalidInput(
                "\(MessageText.path(url)): \(channels) channels; mono or stereo expected")
        }
        guard Double(sampleRate) >= minimumSampleRate else {
            throw SleepCycleSdkError.invalidInput(
                "\(MessageText.path(url)): sample rate \(sampleRate) Hz is below \(Int(minimumSampleRate)) Hz, the lowest "
                    + "the analysis accepts (16 kHz or more is best)")
        }
        guard frames ?? 1 > 0 else {
            throw SleepCycleSdkError.invalidInput("\(MessageText.path(url)): no audio (the file holds 0 frames)")
        }
    }

    /// Reads up to `maxFrames` frames, interleaved; returns nil at the end of the file.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when the file is corrupt (a decoder error from `sf_readf_float`
    ///   or ``OggOpusDecoder``) or no frame at all could be read.
    package func read(maxFrames: Int) throws -> [Float]? {
        guard maxFrames > 0 else { return nil }
        var got = 0
        // The decoder fills the block: it is not zeroed first.
        let block = try [Float](unsafeUninitializedCapacity: maxFrames * channelCount) { buffer, initialized in
            switch decoder {
            case .oggOpus(let opus):
                got = try opus.read(into: buffer, maxFrames: maxFrames)
            case .sndfile(let handle, let isPcm16):
                let count =
                    isPcm16
                    ? readPcm16(handle, into: buffer, maxFrames: maxFrames)
                    : sf_readf_float(handle, buffer.baseAddress, sf_count_t(maxFrames))
                let errorCode = sf_error(handle)
                if errorCode != 0 {
                    throw SleepCycleSdkError.invalidInput(
                        "\(MessageText.path(url)): decoding failed after \(framesRead) frames "
                            + "(\(String(cString: sf_error_number(errorCode))))")
                }
                got = Int(count)
            }
            initialized = max(0, got) * channelCount
        }
        if got <= 0 {
            if let declared = declaredFrameCount, declared != framesRead {
                lengthDisagreement = (declared, framesRead)
            }
            guard framesRead > 0 else {
                throw SleepCycleSdkError.invalidInput("\(MessageText.path(url)): no audio (no frame could be read)")
            }
            return nil
        }
        framesRead += Int64(got)
        if digestsContent { content.update(block) }
        return block
    }

    /// Reads up to `maxFrames` frames mixed to mono (a stereo frame becomes the mean of its two samples); returns
    /// nil at the end of the file.
    ///
    /// - Throws: The errors of `read(maxFrames:)`.
    package func readMono(maxFrames: Int) throws -> [Float]? {
        guard let block = try read(maxFrames: maxFrames) else { return nil }
        guard channelCount == 2 else { return block }
        return stride(from: 0, to: block.count, by: 2).map { (block[$0] + block[$0 + 1]) * 0.5 }
    }

    /// Reads 16-bit frames with `sf_readf_short` and scales them to −1...1 into `block`.
    private func readPcm16(
        _ handle: OpaquePointer, into block: UnsafeMutableBufferPointer<Float>, maxFrames: Int
    ) -> sf_count_t {
        var got: sf_count_t = 0
        // Read into memory that is not zeroed first; only the frames read are converted.
        let integers = [Int16](unsafeUninitializedCapacity: maxFrames * channelCount) { buffer, initialized in
            got = sf_readf_short(handle, buffer.baseAddress, sf_count_t(maxFrames))
            initialized = max(0, Int(got)) * channelCount
        }
        guard got > 0 else { return got }
        integers.withUnsafeBufferPointer { input in
            for index in 0..<(Int(got) * channelCount) { block[index] = Float(input[index]) * (1 / 32_768) }
        }
        return got
    }
}

import COgg
import CSndFile
import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// ``OggOpusDecoder`` gives libsndfile's samples for Ogg Opus of one stream, and fails fast on damaged files.
final class OggOpusDecoderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ogg-opus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(at: directory)
    }

    func test_decoder_givesLibsndfilesSamples_overTheWholeDemoNight() throws {
        // Given the 30-minute demo night (16 kHz mono, pre-skip 312, end trimmed by the last granule position)
        let night = FixturePaths.fixtures.appendingPathComponent("night_short.ogg")
        // Then both decoders give the same frames, sample for sample
        try assertSameSamples(night, expectedRate: 16_000, expectedChannels: 1)
    }

    func test_decoder_givesLibsndfilesSamples_forStereo48kHz_and12kHzMono() throws {
        // Given Opus files libsndfile writes: stereo at 48 kHz, mono at 12 kHz (another decoding rate)
        let stereo = try writeOpus("stereo.opus", sampleRate: 48_000, channels: 2, frames: 100_000)
        let mono = try writeOpus("mono.opus", sampleRate: 12_000, channels: 1, frames: 30_001)
        // Then both decoders agree on each
        try assertSameSamples(stereo, expectedRate: 48_000, expectedChannels: 2)
        try assertSameSamples(mono, expectedRate: 12_000, expectedChannels: 1)
    }

    func test_decoder_appliesTheHeadersOutputGain_asLibsndfileDoes() throws {
        // Given a file, and a copy whose header asks for −6 dB of output gain (Q7.8)
        let url = try writeOpus("gain.opus", sampleRate: 16_000, channels: 1, frames: 40_000)
        let unchanged = try Self.readAll(AudioFileReader(url: url))
        var bytes = try [UInt8](Data(contentsOf: url))
        let gain = UInt16(bitPattern: -6 * 256)
        // The first page: a 27-byte header, one lacing value, then the 19-byte OpusHead with the gain at 16...17.
        bytes[28 + 16] = UInt8(gain & 0xFF)
        bytes[28 + 17] = UInt8(gain >> 8)
        try Data(Self.recomputingFirstPageChecksum(bytes)).write(to: url)
        // Then both decoders apply it: the same samples, at half the amplitude (−6 dB) of the copy without gain
        try assertSameSamples(url, expectedRate: 16_000, expectedChannels: 1)
        let attenuated = try Self.readAll(AudioFileReader(url: url))
        func rms(_ samples: [Float]) -> Float {
            (samples.reduce(0) { $0 + $1 * $1 } / Float(samples.count)).squareRoot()
        }
        XCTAssertEqual(rms(attenuated) / rms(unchanged), 0.501, accuracy: 0.002)
    }

    func test_open_returnsNil_forVorbisWAVAndMultistreamOpus_whichLibsndfileReads() throws {
        // Given an Ogg Vorbis file, a WAV file and a three-channel Opus file (channel-mapping family 1)
        let vorbis = directory.appendingPathComponent("a.ogg")
        let writer = try AudioFileWriter(url: vorbis, sampleRate: 16_000, channelCount: 1, format: .oggVorbis)
        try writer.write([Float](repeating: 0.1, count: 16_000))
        try writer.close()
        let wav = directory.appendingPathComponent("a.wav")
        let wavWriter = try AudioFileWriter(url: wav, sampleRate: 16_000, channelCount: 1, format: .wav16)
        try wavWriter.write([Float](repeating: 0.1, count: 16_000))
        try wavWriter.close()
        let surround = try writeOpus("surround.opus", sampleRate: 48_000, channels: 3, frames: 9_600)
        // Then the Opus decoder leaves them to libsndfile, which still reads them (or rejects three channels)
        XCTAssertNil(try OggOpusDecoder.open(vorbis))
        XCTAssertNil(try OggOpusDecoder.open(wav))
        XCTAssertNil(try OggOpusDecoder.open(surround))
        XCTAssertEqual(try AudioFileReader(url: vorbis).frameCount, 16_000)
        XCTAssertEqual(try AudioFileReader(url: wav).frameCount, 16_000)
        XCTAssertThrowsError(try AudioFileReader(url: surround)) { error in
            XCTAssertTrue("\(error)".contains("3 channels"), "\(error)")
        }
    }

    func test_reader_rejectsTruncatedOggOpus_whenOpening() throws {
        // Given the breathing clip cut at 60 % (inside a page), and cut after a whole page (no end-of-stream page)
        let bytes = try [UInt8](
            Data(contentsOf: FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg")))
        let cutInPage = directory.appendingPathComponent("cut.ogg")
        try Data(bytes.prefix(bytes.count * 6 / 10)).write(to: cutInPage)
        let pageStarts = Self.pageStarts(bytes)
        let cutAtPage = directory.appendingPathComponent("cut-at-page.ogg")
        try Data(bytes.prefix(pageStarts[pageStarts.count / 2])).write(to: cutAtPage)
        // Then opening either throws invalidInput saying truncated, before any decoding
        for url in [cutInPage, cutAtPage] {
            XCTAssertThrowsError(try AudioFileReader(url: url)) { error in
                guard case SleepCycleSdkError.invalidInput(let message) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(message.message.contains("truncated"), message.message)
            }
        }
    }

    func test_reader_throwsCorrupt_atADamagedOrMissingPage() throws {
        // Given the breathing clip with four bytes overwritten at 40 %, and the clip with one page removed
        let bytes = try [UInt8](
            Data(contentsOf: FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg")))
        var damagedBytes = bytes
        for offset in 0..<4 { damagedBytes[bytes.count * 4 / 10 + offset] ^= 0xA5 }
        let damaged = directory.appendingPathComponent("damaged.ogg")
        try Data(damagedBytes).write(to: damaged)
        let pageStarts = Self.pageStarts(bytes)
        let gap = pageStarts[pageStarts.count / 2]..<pageStarts[pageStarts.count / 2 + 1]
        let missing = directory.appendingPathComponent("missing.ogg")
        try Data(bytes[..<gap.lowerBound] + bytes[gap.upperBound...]).write(to: missing)
        // Then reading stops there with invalidInput saying corrupt, having read less than the whole clip
        for url in [damaged, missing] {
            let reader = try AudioFileReader(url: url)
            XCTAssertThrowsError(try Self.readAll(reader)) { error in
                guard case SleepCycleSdkError.invalidInput(let message) = error else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(message.message.contains("corrupt"), message.message)
            }
            XCTAssertLessThan(reader.framesRead, reader.frameCount)
        }
    }

    // MARK: - Helpers

    /// Asserts that ``OggOpusDecoder`` (through ``AudioFileReader``) and libsndfile give `url` the same rate,
    /// channels, length and samples.
    private func assertSameSamples(
        _ url: URL, expectedRate: Int, expectedChannels: Int, line: UInt = #line
    ) throws {
        let decoder = try XCTUnwrap(try OggOpusDecoder.open(url), line: line)
        XCTAssertEqual(decoder.sampleRate, expectedRate, line: line)
        XCTAssertEqual(decoder.channelCount, expectedChannels, line: line)
        let reader = try AudioFileReader(url: url)
        var info = SF_INFO()
        let handle = try XCTUnwrap(sf_open(url.path, Int32(SFM_READ), &info), line: line)
        defer { sf_close(handle) }
        XCTAssertEqual(Int(info.samplerate), expectedRate, line: line)
        XCTAssertEqual(reader.frameCount, Int64(info.frames), line: line)
        // Block by block, both decoders side by side (the demo night is 28.8 million samples).
        let blockFrames = 65_536
        var theirs = [Float](repeating: 0, count: blockFrames * Int(info.channels))
        var theirFrames: Int64 = 0
        var difference: Float = 0
        var peak: Float = 0
        while true {
            let ours = try reader.read(maxFrames: blockFrames) ?? []
            let got = theirs.withUnsafeMutableBufferPointer {
                sf_readf_float(handle, $0.baseAddress, sf_count_t(blockFrames))
            }
            theirFrames += Int64(got)
            XCTAssertEqual(ours.count, Int(got) * Int(info.channels), line: line)
            guard got > 0, !ours.isEmpty else { break }
            ours.withUnsafeBufferPointer { ours in
                theirs.withUnsafeBufferPointer { theirs in
                    for index in 0..<min(ours.count, Int(got) * Int(info.channels)) {
                        difference = max(difference, abs(ours[index] - theirs[index]))
                        peak = max(peak, abs(ours[index]))
                    }
                }
            }
        }
        XCTAssertEqual(theirFrames, info.frames, line: line)
        XCTAssertEqual(reader.framesRead, info.frames, line: line)
        XCTAssertEqual(difference, 0, "largest difference", line: line)
        XCTAssertGreaterThan(peak, 0.001, "not silence", line: line)
    }

    /// Every frame `reader` gives, interleaved.
    private static func readAll(_ reader: AudioFileReader) throws -> [Float] {
        var samples: [Float] = []
        while let block = try reader.read(maxFrames: 65_536) { samples += block }
        return samples
    }

    /// Writes `frames` of two tones with a little deterministic noise as Ogg Opus through libsndfile (family 0 up to two channels, family 1
    /// above).
    private func writeOpus(_ name: String, sampleRate: Int, channels: Int, frames: Int) throws -> URL {
        let url = directory.appendingPathComponent(name)
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
        let handle = try XCTUnwrap(sf_open(url.path, Int32(SFM_WRITE), &info), String(cString: sf_strerror(nil)))
        var noise: UInt32 = 12_345
        let samples = (0..<frames * channels).map { index -> Float in
            let time = Float(index / channels) / Float(sampleRate)
            let tone =
                0.3 * sin(2 * .pi * 440 * time) + 0.2 * sin(2 * .pi * Float(300 + 50 * (index % channels)) * time)
            noise = noise &* 1_664_525 &+ 1_013_904_223
            return tone + 0.05 * (Float(noise >> 8) / Float(1 << 23) - 1)
        }
        let written = samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress, sf_count_t(frames)) }
        XCTAssertEqual(written, sf_count_t(frames))
        XCTAssertEqual(sf_close(handle), 0)
        return url
    }

    /// Byte offsets of the Ogg pages in `bytes`, found by libogg.
    private static func pageStarts(_ bytes: [UInt8]) -> [Int] {
        var sync = ogg_sync_state()
        ogg_sync_init(&sync)
        defer { ogg_sync_clear(&sync) }
        let buffer = ogg_sync_buffer(&sync, bytes.count)!
        bytes.withUnsafeBytes {
            UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: bytes.count)
        }
        ogg_sync_wrote(&sync, bytes.count)
        var starts: [Int] = []
        var position = 0
        var page = ogg_page()
        while case let result = ogg_sync_pageseek(&sync, &page), result > 0 {
            starts.append(position)
            position += result
        }
        return starts
    }

    /// `bytes` with the first page's CRC set for its edited contents (libogg computes it).
    private static func recomputingFirstPageChecksum(_ bytes: [UInt8]) -> [UInt8] {
        var edited = bytes
        let headerBytes = 27 + Int(bytes[26])
        let bodyBytes = (0..<Int(bytes[26])).reduce(0) { $0 + Int(bytes[27 + $1]) }
        edited.withUnsafeMutableBufferPointer { pointer in
            var page = ogg_page(
                header: pointer.baseAddress, header_len: headerBytes, body: pointer.baseAddress! + headerBytes,
                body_len: bodyBytes)
            ogg_page_checksum_set(&page)
        }
        return edited
    }
}

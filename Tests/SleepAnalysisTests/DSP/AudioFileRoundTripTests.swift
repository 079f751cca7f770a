import XCTest

@testable import SleepAnalysis

/// `AudioFileWriter` → `AudioFileReader`: 16-bit values survive exactly (the reader's integer fast path scales by
/// 1/32768, as libsndfile's float conversion does), in WAV and FLAC, mono and stereo.
final class AudioFileRoundTripTests: XCTestCase {
    func test_pcm16_values_round_trip_exactly_in_wav_and_flac() throws {
        let values: [Float] = [-32_768, -32_767, -1, 0, 1, 12_345, 32_767].map { $0 / 32_768 }
        for format: AudioFileWriter.Format in [.wav16, .flac16] {
            for channels in [1, 2] {
                let url = FileManager.default.temporaryDirectory
                    .appendingPathComponent("roundtrip-\(UUID().uuidString).\(format.fileExtension)")
                defer { try? FileManager.default.removeItem(at: url) }
                let samples = Array(values.prefix(values.count / channels * channels))
                let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: channels, format: format)
                try writer.write(samples)
                try writer.close()
                let reader = try AudioFileReader(url: url)
                XCTAssertEqual(reader.channelCount, channels)
                XCTAssertEqual(try reader.read(maxFrames: 100), samples, "\(format) \(channels) ch")
                XCTAssertNil(try reader.read(maxFrames: 100))
            }
        }
    }

    func test_readMono_averages_a_stereo_frame_and_passes_mono_through() throws {
        let stereo: [Float] = [0.5, -0.25, 0.125, 0.125, -1, 0.5].map { $0 * 32_767 / 32_768 }
        for channels in [1, 2] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("mono-\(UUID().uuidString).wav")
            defer { try? FileManager.default.removeItem(at: url) }
            let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: channels, format: .wav16)
            try writer.write(stereo)
            try writer.close()
            let exact = try XCTUnwrap(try AudioFileReader(url: url).read(maxFrames: 100))
            let expected = channels == 1 ? exact : (0..<3).map { (exact[2 * $0] + exact[2 * $0 + 1]) / 2 }
            let reader = try AudioFileReader(url: url)
            XCTAssertEqual(try reader.readMono(maxFrames: 100), expected, "\(channels) ch")
            XCTAssertNil(try reader.readMono(maxFrames: 100))
        }
    }

    func test_writer_rejects_bad_rate_and_partial_frames() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try AudioFileWriter(url: url, sampleRate: 0, channelCount: 1, format: .wav16))
        let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: 2, format: .wav16)
        XCTAssertThrowsError(try writer.write([0.1])) { error in
            guard case SleepCycleSdkError.invalidInput = error else { return XCTFail("\(error)") }
        }
    }

    /// WAV files are opened as RF64 (so that one past 4 GiB keeps true sizes) and closed as plain RIFF/WAVE when
    /// smaller: what every WAV reader takes, with the data size in its header.
    func test_wav_under_4_GiB_is_plain_riff_wave_with_its_true_data_size() throws {
        for format: AudioFileWriter.Format in [.wav16, .wavFloat] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("riff-\(UUID().uuidString).wav")
            defer { try? FileManager.default.removeItem(at: url) }
            let samples = (0..<3_200).map { Float(($0 % 64) - 32) / 64 }
            let writer = try AudioFileWriter(url: url, sampleRate: 16_000, channelCount: 2, format: format)
            try writer.write(samples)
            try writer.close()
            let bytes = [UInt8](try Data(contentsOf: url))
            XCTAssertEqual(String(decoding: bytes[0..<4], as: UTF8.self), "RIFF", "\(format)")
            XCTAssertEqual(String(decoding: bytes[8..<12], as: UTF8.self), "WAVE", "\(format)")
            let riffSize = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
            XCTAssertEqual(riffSize, bytes.count - 8, "\(format): the RIFF size counts the whole file")
            let reader = try AudioFileReader(url: url)
            XCTAssertEqual(try reader.read(maxFrames: 2_000)?.count, samples.count, "\(format)")
        }
    }
}

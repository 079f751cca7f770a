import XCTest

@testable import SleepAnalysis

/// Lengths come from the data, not the header: WAVE, AIFF and AU files whose size field under-states the audio are
/// read to their real end with the disagreement reported, while metadata chunks after the audio (a `LIST`, an
/// `id3 `) are never read as sound. The files are written byte by byte here, as recorders write them.
final class ContainerLengthTests: XCTestCase {
    private var directory: URL!
    private let rate = 16_000

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("container-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Files as recorders write them

    /// `seconds` of a two-tone signal as 16-bit samples, never zero for long (so padding cannot pass for it).
    private func samples(seconds: Int) -> [Int16] {
        (0..<(seconds * rate)).map { Int16(8_000 * sin(Double($0) * 0.05) + 2_000 * sin(Double($0) * 1.3)) }
    }

    private func little32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    private func big32(_ value: UInt32) -> [UInt8] { little32(value).reversed() }
    private func little16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func big16(_ value: UInt16) -> [UInt8] { little16(value).reversed() }

    /// A `LIST/INFO` chunk naming the recording, as editors append after the audio.
    private let listChunk: [UInt8] =
        Array("LIST".utf8) + [18, 0, 0, 0] + Array("INFOINAM".utf8) + [6, 0, 0, 0] + Array("night\u{0}".utf8)

    /// A mono 16-bit RIFF/WAVE file whose `data` size field says `declaredBytes`, followed by `trailer`.
    private func wave(_ audio: [Int16], declaredBytes: UInt32, trailer: [UInt8] = []) throws -> URL {
        let data = audio.flatMap { little16(UInt16(bitPattern: $0)) }
        var format = little16(1) + little16(1) + little32(UInt32(rate)) + little32(UInt32(rate * 2))
        format += little16(2) + little16(16)
        let body =
            Array("WAVE".utf8) + Array("fmt ".utf8) + little32(16) + format + Array("data".utf8)
            + little32(declaredBytes) + data + trailer
        return try write("night-\(UUID().uuidString).wav", Array("RIFF".utf8) + little32(UInt32(body.count)) + body)
    }

    /// A mono 16-bit AIFF file whose `SSND` chunk and `COMM` frame count say `declaredFrames`.
    private func aiff(_ audio: [Int16], declaredFrames: UInt32, trailer: [UInt8] = []) throws -> URL {
        let data = audio.flatMap { big16(UInt16(bitPattern: $0)) }
        // 16000 as an 80-bit extended float: exponent 16383 + 13, mantissa 16000 << (63 - 13).
        let rateBytes =
            big16(16_383 + 13) + (0..<8).map { UInt8(truncatingIfNeeded: (UInt64(16_000) << 50) >> (56 - 8 * $0)) }
        let common = Array("COMM".utf8) + big32(18) + big16(1) + big32(declaredFrames) + big16(16) + rateBytes
        let sound = Array("SSND".utf8) + big32(declaredFrames * 2 + 8) + big32(0) + big32(0) + data
        let body = Array("AIFF".utf8) + common + sound + trailer
        return try write("night-\(UUID().uuidString).aiff", Array("FORM".utf8) + big32(UInt32(body.count)) + body)
    }

    /// A mono 16-bit Sun AU file whose data size says `declaredBytes`.
    private func au(_ audio: [Int16], declaredBytes: UInt32) throws -> URL {
        let header = Array(".snd".utf8) + big32(24) + big32(declaredBytes) + big32(3) + big32(UInt32(rate)) + big32(1)
        return try write("night-\(UUID().uuidString).au", header + audio.flatMap { big16(UInt16(bitPattern: $0)) })
    }

    private func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    /// Every sample of the file, and the reader after its end.
    private func readAll(_ url: URL) throws -> (samples: [Int16], reader: AudioFileReader) {
        let reader = try AudioFileReader(url: url)
        var all: [Int16] = []
        while let block = try reader.read(maxFrames: 4_096) { all += block.map { Int16(($0 * 32_768).rounded()) } }
        return (all, reader)
    }

    // MARK: - Under-stated headers

    func test_aWAVEWhoseDataSizeUnderstatesTheAudio_isReadToItsEnd_andSaysSo() throws {
        let audio = samples(seconds: 60)
        let url = try wave(audio, declaredBytes: UInt32(6 * rate * 2))
        XCTAssertEqual(try AudioFileReader(url: url).frameCount, Int64(60 * rate), "the length comes from the data")
        let (read, reader) = try readAll(url)
        XCTAssertEqual(read, audio)
        XCTAssertEqual(reader.lengthDisagreement?.declared, Int64(6 * rate))
        XCTAssertEqual(reader.lengthDisagreement?.read, Int64(60 * rate))
    }

    func test_aWAVENeverFinalised_sizeZero_isReadWhole_andSaysSo() throws {
        let audio = samples(seconds: 5)
        let (read, reader) = try readAll(try wave(audio, declaredBytes: 0))
        XCTAssertEqual(read, audio)
        XCTAssertEqual(reader.lengthDisagreement?.declared, 0)
    }

    func test_metadataAfterTheAudio_isNotReadAsSound() throws {
        let audio = samples(seconds: 5)
        let (read, reader) = try readAll(try wave(audio, declaredBytes: UInt32(audio.count * 2), trailer: listChunk))
        XCTAssertEqual(read, audio)
        XCTAssertNil(reader.lengthDisagreement)
    }

    func test_anUnderstatedWAVEWithMetadataAfterItsAudio_readsTheAudioAndStopsAtTheMetadata() throws {
        let audio = samples(seconds: 30)
        let url = try wave(audio, declaredBytes: UInt32(2 * rate * 2), trailer: listChunk)
        let (read, reader) = try readAll(url)
        XCTAssertEqual(read, audio, "all the audio, none of the LIST chunk")
        XCTAssertEqual(reader.lengthDisagreement?.declared, Int64(2 * rate))
    }

    func test_aStreamingPlaceholderSize_readsToTheMetadata_withoutADisagreement() throws {
        let audio = samples(seconds: 3)
        let (read, reader) = try readAll(try wave(audio, declaredBytes: 0xFFFF_FFFF, trailer: listChunk))
        XCTAssertEqual(read, audio)
        XCTAssertNil(reader.lengthDisagreement, "0xFFFFFFFF says nothing: there is nothing to disagree with")
        XCTAssertNil(try AudioFileReader(url: try wave(audio, declaredBytes: 0xFFFF_FFFF)).declaredFrameCount)
    }

    func test_zeroPaddingAfterACompleteWAVE_isNotAudio() throws {
        let audio = samples(seconds: 2)
        let url = try wave(audio, declaredBytes: UInt32(audio.count * 2), trailer: [UInt8](repeating: 0, count: 4_096))
        let (read, reader) = try readAll(url)
        XCTAssertEqual(read, audio)
        XCTAssertNil(reader.lengthDisagreement)
    }

    func test_anAIFFWhoseSoundChunkUnderstatesTheAudio_isReadToItsEnd_andSaysSo() throws {
        let audio = samples(seconds: 20)
        let (read, reader) = try readAll(try aiff(audio, declaredFrames: UInt32(2 * rate)))
        XCTAssertEqual(read, audio)
        XCTAssertEqual(reader.lengthDisagreement?.declared, Int64(2 * rate))
        let idTag = Array("ID3 ".utf8) + big32(10) + [UInt8](repeating: 7, count: 10)
        let (tagged, _) = try readAll(try aiff(audio, declaredFrames: UInt32(2 * rate), trailer: idTag))
        XCTAssertEqual(tagged, audio, "an ID3 chunk after the audio is not sound")
    }

    func test_anAUWhoseDataSizeUnderstatesTheAudio_isReadToItsEnd_andSaysSo() throws {
        let audio = samples(seconds: 20)
        let (read, reader) = try readAll(try au(audio, declaredBytes: UInt32(rate * 2)))
        XCTAssertEqual(read, audio)
        XCTAssertEqual(reader.lengthDisagreement?.declared, Int64(rate))
        let (streamed, streamedReader) = try readAll(try au(audio, declaredBytes: 0xFFFF_FFFF))
        XCTAssertEqual(streamed, audio)
        XCTAssertNil(streamedReader.lengthDisagreement)
    }

    func test_aCorrectHeader_isReadAsItSays_inEveryFormat() throws {
        let audio = samples(seconds: 4)
        for url in [
            try wave(audio, declaredBytes: UInt32(audio.count * 2)),
            try aiff(audio, declaredFrames: UInt32(audio.count)),
            try au(audio, declaredBytes: UInt32(audio.count * 2)),
        ] {
            let (read, reader) = try readAll(url)
            XCTAssertEqual(read, audio, url.lastPathComponent)
            XCTAssertNil(reader.lengthDisagreement, url.lastPathComponent)
            XCTAssertEqual(ContainerLength.inspect(path: url.path)?.patches, [], "nothing to patch")
        }
    }
}

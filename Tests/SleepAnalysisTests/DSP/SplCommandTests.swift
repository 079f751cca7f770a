import XCTest

@testable import SleepAnalysis

/// `sleepanalysis spl` and the library call behind it, on WAV files written by the project's own writer.
final class SplCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spl-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Writes a 1 kHz tone of `amplitude` (2 s, mono or the same tone on both channels).
    private func writeTone(amplitude: Double, sampleRate: Int, channels: Int) throws -> URL {
        let url = directory.appendingPathComponent("tone-\(sampleRate)-\(channels).wav")
        let writer = try AudioFileWriter(url: url, sampleRate: sampleRate, channelCount: channels, format: .wav16)
        let tone = TestSignals.sine(
            frequency: 1_000, amplitude: amplitude, sampleRate: Double(sampleRate), count: 2 * sampleRate)
        try writer.write(channels == 1 ? tone : tone.flatMap { [$0, $0] })
        try writer.close()
        return url
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, output: Data, error: String) {
        let result = try runCommandLineTool(arguments)
        return (result.status, Data(result.standardOutput.utf8), result.standardError)
    }

    func test_soundLevelAnalysis_reads_file_mono_and_stereo() throws {
        for channels in [1, 2] {
            let url = try writeTone(amplitude: pow(10, -26.0 / 20), sampleRate: 44_100, channels: channels)
            let report = try SoundLevelAnalysis.analyze(file: url)
            XCTAssertEqual(report.leq, 94, accuracy: 0.1)
            XCTAssertEqual(report.channelCount, channels)
            XCTAssertEqual(report.duration, 2, accuracy: 1e-9)
            XCTAssertEqual(report.frames.count, 4)
        }
    }

    func test_spl_counts_clipped_samples_and_says_its_levels_read_low_there() throws {
        // Given: a 1 kHz tone at twice full scale, cut off at ±1 when written (16-bit), and the same tone at half scale.
        for (amplitude, clipped) in [(2.0, true), (0.5, false)] {
            let url = try writeTone(amplitude: amplitude, sampleRate: 48_000, channels: 2)
            var stored: [Float] = []
            let reader = try AudioFileReader(url: url)
            while let block = try reader.read(maxFrames: 4_096) { stored += block }
            let expected = (2..<stored.count).filter { stored[$0] == stored[$0 - 2] && abs(stored[$0]) >= 0.99 }.count

            // When
            let report = try SoundLevelAnalysis.analyze(file: url)
            let text = try run(["spl", url.path])

            // Then
            XCTAssertEqual(report.clippedSampleCount, expected)
            XCTAssertEqual(expected > 1_000, clipped, "\(expected) clipped samples at amplitude \(amplitude)")
            XCTAssertEqual(text.status, 0, text.error)
            let output = String(decoding: text.output, as: UTF8.self)
            XCTAssertEqual(output.contains("clipped at full scale; the levels read low there"), clipped, output)
        }
    }

    func test_soundLevelAnalysis_throws_invalidInput_for_missing_and_garbage_files() throws {
        XCTAssertThrowsError(try SoundLevelAnalysis.analyze(file: directory.appendingPathComponent("none.wav"))) {
            guard case SleepCycleSdkError.invalidInput = $0 else { return XCTFail("\($0)") }
        }
        let garbage = directory.appendingPathComponent("garbage.wav")
        try Data("not audio".utf8).write(to: garbage)
        XCTAssertThrowsError(try SoundLevelAnalysis.analyze(file: garbage)) {
            guard case SleepCycleSdkError.invalidInput = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try SoundLevelAnalysis.analyze(samples: [], sampleRate: 16_000))
        XCTAssertThrowsError(try SoundLevelAnalysis.analyze(samples: [0.1], sampleRate: 0)) {
            guard case SleepCycleSdkError.invalidConfiguration = $0 else { return XCTFail("\($0)") }
        }
    }

    func test_splCommand_prints_json_with_leq_min_max_frames_frameDuration() throws {
        let url = try writeTone(amplitude: pow(10, -26.0 / 20), sampleRate: 16_000, channels: 1)
        let result = try run(["spl", url.path, "--format", "json", "--calibration-offset", "110"])
        XCTAssertEqual(result.status, 0, result.error)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(object["leq"] as? Double), 84, accuracy: 0.1)
        XCTAssertEqual(try XCTUnwrap(object["min"] as? Double), 84, accuracy: 0.2)
        XCTAssertEqual(try XCTUnwrap(object["max"] as? Double), 84, accuracy: 0.2)
        XCTAssertEqual(try XCTUnwrap(object["frameDuration"] as? Double), 0.5)
        XCTAssertEqual(try XCTUnwrap(object["frames"] as? [Double]).count, 4)
    }

    func test_splCommand_fails_with_message_and_status_for_bad_input() throws {
        let missing = try run(["spl", directory.appendingPathComponent("none.wav").path])
        XCTAssertEqual(missing.status, 65)
        XCTAssertTrue(missing.error.contains("no such file"), missing.error)
        let usage = try run(["spl"])
        XCTAssertEqual(usage.status, 64)
        XCTAssertTrue(usage.error.hasSuffix("Help: sleepanalysis spl --help\n"), usage.error)
        let badOffset = try run(["spl", "x.wav", "--calibration-offset", "loud"])
        XCTAssertEqual(badOffset.status, 64)
        let absurdOffset = try run(["spl", "x.wav", "--calibration-offset", "1e300"])
        XCTAssertEqual(absurdOffset.status, 64)
        XCTAssertTrue(absurdOffset.error.contains("between 0 and 200 dB"), absurdOffset.error)
        let unknown = try run(["frobnicate"])
        XCTAssertEqual(unknown.status, 64)
    }
}

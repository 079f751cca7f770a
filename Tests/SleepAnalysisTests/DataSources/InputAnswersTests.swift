import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Every input gets an answer within seconds: a result (with warnings where the input lowers it) or a typed
/// error naming the file, the line and the reason. Each case here was a hang, a trap or a silent result before.
final class InputAnswersTests: InputAnswersTestCase {
    /// A quiet room: low noise-like sound (about -60 dBFS), not the flat line of a dead microphone.
    private func quietRoom(count: Int) -> [Float] {
        (0..<count).map { Float(0.001 * sin(Double($0) * 0.7) + 0.0005 * sin(Double($0) * 2.3)) }
    }

    /// Writes `samples` as a WAV file at `rate`.
    private func wav(_ name: String, _ samples: [Float], rate: Int, float: Bool = false) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        let writer = try AudioFileWriter(
            url: url, sampleRate: rate, channelCount: 1, format: float ? .wavFloat : .wav16)
        try writer.write(samples)
        try writer.close()
        return url
    }

    /// Writes `samples` as a 32-bit float WAV file, then overwrites the samples at the given indices with the
    /// given values (libsndfile refuses to write them).
    private func floatWAV(_ name: String, _ samples: [Float], overwriting damage: [(Int, Float)]) throws -> URL {
        let url = try wav(name, samples, rate: 16_000, float: true)
        var bytes = try Data(contentsOf: url)
        let dataChunk = try XCTUnwrap(bytes.range(of: Data("data".utf8)))
        let firstSample = dataChunk.upperBound + 4
        for (index, value) in damage {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { raw in
                bytes.replaceSubrange(firstSample + 4 * index..<firstSample + 4 * index + 4, with: raw)
            }
        }
        try bytes.write(to: url)
        return url
    }

    /// The first four minutes of the demo night, mono at 16 kHz.
    private func demoSamples() throws -> [Float] {
        let night = try AnalyzerNights.write(index: 0, into: directory.url)
        let reader = try AudioFileReader(url: night)
        var samples: [Float] = []
        while let block = try reader.readMono(maxFrames: 16_000) { samples += block }
        return samples
    }

    private func text(_ name: String, _ contents: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    func test_audio_without_frames_is_an_error() async throws {
        let empty = try wav("empty.wav", [], rate: 16_000)
        await assertInvalidInput({ _ = try await self.analyse(empty) }, mentions: ["empty.wav", "0 frames"])
    }

    func test_audio_below_1kHz_is_an_error_and_not_a_long_resampling() async throws {
        let slow = try wav("one-hertz.wav", (0..<3_500).map { Float($0 % 7) / 10 }, rate: 1)
        await assertInvalidInput({ _ = try await self.analyse(slow) }, mentions: ["one-hertz.wav", "1 Hz"])
        XCTAssertThrowsError(try BreathingAnalysis.analyze(audio: slow, accelerometer: nil, startTime: start))
    }

    func test_special_files_are_refused_not_opened() async throws {
        let fifo = directory.url.appendingPathComponent("pipe.wav")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        await assertInvalidInput({ _ = try await self.analyse(fifo) }, mentions: ["pipe.wav", "FIFO"])
        await assertInvalidInput(
            { _ = try await self.analyse(nil, accelerometer: fifo) }, mentions: ["pipe.wav", "FIFO"])
    }

    func test_sensor_files_without_data_rows_are_errors() async throws {
        let empty = try text("empty.csv", "")
        let header = try text("header.csv", "timestamp,x,y,z\n# nothing measured\n")
        await assertInvalidInput({ _ = try await self.analyse(nil, accelerometer: empty) }, mentions: ["no data row"])
        await assertInvalidInput(
            { _ = try await self.analyse(nil, accelerometer: header) }, mentions: ["a header but no data row"])
    }

    func test_timestamps_without_a_zone_are_not_taken_for_headers() async throws {
        let rows = (0..<60).map { String(format: "2026-12-01T23:00:%02d,0,0,1", $0) }
        let zoneless = try text("zoneless.csv", "timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n")
        await assertInvalidInput(
            { _ = try await self.analyse(nil, accelerometer: zoneless) },
            mentions: ["zoneless.csv line 2", "not a timestamp"])
    }

    func test_a_row_centuries_away_is_an_error_not_an_endless_night() async throws {
        let audio = try wav("quiet.wav", quietRoom(count: 16_000 * 5), rate: 16_000)
        let csv = try text("far.csv", "timestamp,x,y,z\n0.0,0,0,1\n0.1,0,0,1\n4002-01-01T00:00:00Z,0,0,1\n")
        let began = Date()
        await assertInvalidInput(
            { _ = try await self.analyse(audio, accelerometer: csv) }, mentions: ["far.csv line 4", "days after"])
        XCTAssertLessThan(Date().timeIntervalSince(began), 20)
    }

    func test_sensor_readings_outside_the_recording_are_a_warning() async throws {
        let audio = try wav("quiet.wav", quietRoom(count: 16_000 * 60), rate: 16_000)
        let rows = (0..<100).map { String(format: "%.1f,0,0,1", 7_200 + Double($0) * 0.1) }
        let later = try text("later.csv", "timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n")
        let result = try await analyse(audio, accelerometer: later)
        let warning = try XCTUnwrap(result.warnings.first { $0.kind == .sensorReadingsOutsideRecording })
        XCTAssertEqual(warning.count, 100)
        XCTAssertTrue(warning.message.contains("accelerometer"))
        let inside = try text("inside.csv", "timestamp,x,y,z\n0.0,0,0,1\n0.1,0,0,1\n")
        let clean = try await analyse(audio, accelerometer: inside)
        XCTAssertEqual(clean.warnings, [])
    }

    func test_implausible_heart_rates_are_left_out_and_counted() async throws {
        // Given: five minutes of a wearable's heart rate every 5 s, three of its readings glitches (0.5, 400, 900 bpm).
        let audio = try wav("quiet.wav", quietRoom(count: 16_000 * 300), rate: 16_000)
        var rows = (0..<60).map { String(format: "%d,%.1f", $0 * 5, 58 + Double($0 % 7)) }
        rows[10] = "50,0.5"
        rows[20] = "100,400"
        rows[30] = "150,900"
        let glitchy = try text("glitchy.csv", "timestamp,bpm\n" + rows.joined(separator: "\n") + "\n")
        let clean = try text(
            "clean.csv", "timestamp,bpm\n" + (0..<60).map { "\($0 * 5),60" }.joined(separator: "\n") + "\n")

        // When
        let result = try await analyse(audio, heartRate: glitchy)
        let cleanResult = try await analyse(audio, heartRate: clean)

        // Then
        XCTAssertEqual(result.warnings.map(\.kind), [.implausibleHeartRates])
        XCTAssertEqual(result.warnings.first?.count, 3)
        XCTAssertTrue(result.warnings.first?.message.contains("20–250 bpm") ?? false, "\(result.warnings)")
        XCTAssertEqual(cleanResult.warnings, [])
        XCTAssertEqual(result.sleepStagePredictions.count, cleanResult.sleepStagePredictions.count)
    }

    func test_nonFinite_samples_cost_only_their_windows_and_are_counted() async throws {
        let samples = try demoSamples()
        let clean = try await analyse(try wav("clean.wav", samples, rate: 16_000, float: true))
        let damage: [(Int, Float)] = [(16_000 * 30, .nan), (16_000 * 95, .infinity), (16_000 * 170, -.infinity)]
        let result = try await analyse(try floatWAV("damaged.wav", samples, overwriting: damage))
        XCTAssertEqual(result.warnings.map(\.kind), [.nonFiniteSamples])
        XCTAssertEqual(result.warnings.first?.count, 3)
        XCTAssertFalse(clean.breathingRates.isEmpty)
        XCTAssertEqual(result.breathingRates.count, clean.breathingRates.count)
        XCTAssertTrue(result.breathingRates.allSatisfy { $0.bpm.isFinite })
        XCTAssertEqual(result.sleepStagePredictions.count, clean.sleepStagePredictions.count)
        XCTAssertEqual(clean.warnings, [])
        let level = try SoundLevelAnalysis.analyze(file: directory.url.appendingPathComponent("damaged.wav"))
        XCTAssertEqual(level.repairedSampleCount, 3)
        XCTAssertTrue(level.leq.isFinite && level.max.isFinite)
    }

    func test_clipped_audio_is_a_warning_and_audio_that_only_reaches_full_scale_is_not() async throws {
        // Given: the demo night's first three minutes turned up until one sample in a hundred passes full scale,
        // and the same minutes scaled so that their loudest sample is just under it.
        let samples = Array(try demoSamples().prefix(16_000 * 180))
        let magnitudes = samples.map(abs).sorted()
        let gain = 1 / magnitudes[magnitudes.count * 99 / 100]
        let clipped = samples.map { min(1, max(-1, gain * $0)) }
        let loud = samples.map { 0.98 * $0 / magnitudes[magnitudes.count - 1] }

        // When
        let clippedResult = try await analyse(try wav("clipped.wav", clipped, rate: 16_000))
        let loudResult = try await analyse(try wav("loud.wav", loud, rate: 16_000))

        // Then: the clipped night says how many samples clipped, as read back from its 16-bit file.
        let reader = try AudioFileReader(url: directory.url.appendingPathComponent("clipped.wav"))
        var stored: [Float] = []
        while let block = try reader.readMono(maxFrames: 16_000) { stored += block }
        let plateau = zip(stored.dropFirst(), stored).filter { $0 == $1 && abs($0) >= 0.99 }.count
        XCTAssertGreaterThan(plateau, ClippingMonitor.reportedFrom)
        XCTAssertEqual(clippedResult.warnings.map(\.kind), [.clippedAudio])
        XCTAssertEqual(clippedResult.warnings.first?.count, plateau)
        XCTAssertTrue(
            clippedResult.warnings[0].message.contains("lower the input gain"), clippedResult.warnings[0].message)
        XCTAssertEqual(loudResult.warnings, [])
    }

    func test_narrow_audio_is_analysed_with_a_warning_naming_the_degraded_detectors() async throws {
        let samples = try demoSamples()
        let down = try Resampler(inputRate: 16_000, outputRate: 8_000, channelCount: 1)
        let narrow = try down.process(samples) + down.flush()
        let at8kHz = try await analyse(try wav("phone.wav", narrow, rate: 8_000))
        XCTAssertEqual(at8kHz.warnings.map(\.kind), [.lowSampleRate])
        XCTAssertTrue(at8kHz.warnings[0].message.contains("events-band-limited"), at8kHz.warnings[0].message)
        let up = try Resampler(inputRate: 8_000, outputRate: 16_000, channelCount: 1)
        let resampled = try await analyse(try wav("upsampled.wav", try up.process(narrow) + up.flush(), rate: 16_000))
        XCTAssertEqual(resampled.warnings.map(\.kind), [.bandLimitedAudio])
        let full = try await analyse(try wav("full.wav", samples, rate: 16_000))
        XCTAssertEqual(full.warnings, [])
    }

    func test_an_8kHz_night_is_analysed_with_the_band_limited_event_model_and_its_snores_are_found() async throws {
        // Minutes 16-20 of the demo night: its second snoring episode (17:00-20:00, about 39 snores).
        let reader = try AudioFileReader(url: try AnalyzerNights.write(index: 4, into: directory.url))
        var samples: [Float] = []
        while let block = try reader.readMono(maxFrames: 16_000) { samples += block }
        let down = try Resampler(inputRate: 16_000, outputRate: 8_000, channelCount: 1)
        let narrow = try down.process(samples) + down.flush()
        let result = try await analyse(try wav("phone-snoring.wav", narrow, rate: 8_000))
        XCTAssertEqual(result.warnings.map(\.kind), [.lowSampleRate])
        let snores = result.events.filter { $0.type == .snoring }
        print("8-kHz snoring episode: \(snores.count) snoring events")
        // The full-band model finds none of them at 8 kHz (BandLimitedEventModelTests).
        XCTAssertGreaterThanOrEqual(snores.count, 25)
        XCTAssertTrue(snores.allSatisfy { $0.interval.start >= start.addingTimeInterval(50) })
    }

    func test_warnings_survive_encoding_and_old_results_decode_without_them() throws {
        var result = AnalysisResult(sessionId: UUID(), startTime: start, endTime: start.addingTimeInterval(60))
        let clean = try JSONEncoder().encode(result)
        XCTAssertFalse(String(decoding: clean, as: UTF8.self).contains("warnings"))
        XCTAssertEqual(try JSONDecoder().decode(AnalysisResult.self, from: clean), result)
        result.warnings = [AnalysisWarning(kind: .nonFiniteSamples, message: "2 samples", count: 2)]
        let encoded = try JSONEncoder().encode(result)
        XCTAssertEqual(try JSONDecoder().decode(AnalysisResult.self, from: encoded), result)
    }
}

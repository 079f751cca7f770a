import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// No silent wrong night: input that lies about itself is read for what it holds and flagged, rows that are not one
/// night are refused with their line, valid input is accepted, a microphone that heard nothing says so. Each case
/// here was analysed wrongly without a word (or refused although valid) before; all run on files written here.
final class InputAnswersNightTests: InputAnswersTestCase {
    private func tone(seconds: Double, rate: Int = 16_000) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { index -> Float in
            let phase = Double(index)
            let low: Double = 0.05 * sin(phase * 0.3)
            let high: Double = 0.01 * sin(phase * 2.1)
            return Float(low + high)
        }
    }

    private func audio(
        _ name: String, _ samples: [Float], rate: Int = 16_000, format: AudioFileWriter.Format
    ) throws
        -> URL
    {
        let url = directory.url.appendingPathComponent(name)
        let writer = try AudioFileWriter(url: url, sampleRate: rate, channelCount: 1, format: format)
        try writer.write(samples)
        try writer.close()
        return url
    }

    /// Rewrites the total-samples field of a FLAC file's STREAMINFO block (36 bits at byte 21.5).
    private func setFLACTotalSamples(_ url: URL, to total: UInt64) throws {
        var bytes = try Data(contentsOf: url)
        XCTAssertEqual(bytes.prefix(4), Data("fLaC".utf8))
        var word = bytes[18..<26].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        word = (word & ~UInt64(0xF_FFFF_FFFF)) | total
        for index in 0..<8 { bytes[18 + index] = UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64(index))) }
        try bytes.write(to: url)
    }

    private func text(_ name: String, _ contents: String) throws -> URL {
        let url = directory.url.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    // MARK: - Lengths come from the data

    /// Analyses a 60-s recording whose header says 6 s: the night is 60 s long and carries the length warning, with
    /// the frames read and the header's count.
    private func assertReadWhole(_ url: URL, file: StaticString = #filePath, line: UInt = #line) async throws {
        let result = try await analyse(url)
        XCTAssertEqual(result.endTime.timeIntervalSince(result.startTime), 60, accuracy: 0.1, file: file, line: line)
        let warning = try XCTUnwrap(
            result.warnings.first { $0.kind == .audioLengthDiffersFromHeader }, file: file, line: line)
        XCTAssertEqual(warning.count, 60 * 16_000, file: file, line: line)
        XCTAssertTrue(warning.message.contains("gives 96000 frames"), warning.message, file: file, line: line)
    }

    func test_aFLACWhoseHeaderUnderstatesItsLength_isReadToItsEnd_withAWarning() async throws {
        let flac = try audio("short-header.flac", tone(seconds: 60), format: .flac16)
        try setFLACTotalSamples(flac, to: 6 * 16_000)
        try await assertReadWhole(flac)
    }

    func test_aFLACOfUnknownLength_asWrittenToAPipe_isAnalysedWithoutAWarning() async throws {
        let flac = try audio("streamed.flac", tone(seconds: 60), format: .flac16)
        try setFLACTotalSamples(flac, to: 0)
        let source = FileDataSource(audio: flac, accelerometer: nil, startTime: start)
        XCTAssertNil(source.audioDuration)
        let result = try await analyse(flac)
        XCTAssertEqual(result.endTime.timeIntervalSince(result.startTime), 60, accuracy: 0.1)
        XCTAssertEqual(result.warnings, [])
    }

    func test_aWAVEWhoseHeaderUnderstatesItsLength_isReadToItsEnd_withAWarning() async throws {
        let wav = try audio("short-header.wav", tone(seconds: 60), format: .wav16)
        var bytes = try Data(contentsOf: wav)
        let sizeField = try XCTUnwrap(bytes.range(of: Data("data".utf8))).upperBound
        let declared = UInt32(6 * 16_000 * 2)
        for index in 0..<4 { bytes[sizeField + index] = UInt8(truncatingIfNeeded: declared >> (8 * UInt32(index))) }
        try bytes.write(to: wav)
        try await assertReadWhole(wav)
    }

    func test_aWAVECutOff_isAnalysedForWhatItHolds_withAWarning() async throws {
        let wav = try audio("cut.wav", tone(seconds: 60), format: .wav16)
        let bytes = try Data(contentsOf: wav)
        try bytes.prefix(bytes.count - 20 * 16_000 * 2).write(to: wav)
        let result = try await analyse(wav)
        XCTAssertEqual(result.endTime.timeIntervalSince(result.startTime), 40, accuracy: 0.1)
        let warning = try XCTUnwrap(result.warnings.first { $0.kind == .audioLengthDiffersFromHeader })
        XCTAssertEqual(warning.count, 40 * 16_000)
    }

    // MARK: - Limits before memory is spent

    func test_aWAVDeclaringTwoBillionHertz_isRefusedAtOpen() async throws {
        for rate: UInt32 in [UInt32(Int32.max), 1 << 31] {
            let wav = try audio("forged-\(rate).wav", tone(seconds: 2), format: .wav16)
            var bytes = try Data(contentsOf: wav)
            let format = try XCTUnwrap(bytes.range(of: Data("fmt ".utf8)))
            let field = format.upperBound + 8..<format.upperBound + 12
            withUnsafeBytes(of: rate.littleEndian) { bytes.replaceSubrange(field, with: $0) }
            try bytes.write(to: wav)
            await assertInvalidInput({ _ = try await self.analyse(wav) }, mentions: ["forged-\(rate).wav"])
        }
        let forged = directory.url.appendingPathComponent("forged-\(Int32.max).wav")
        XCTAssertThrowsError(try AudioFileReader(url: forged)) { error in
            XCTAssertTrue("\(error)".contains("2147483647 Hz is above 768000 Hz"), "\(error)")
        }
    }

    func test_aCSVLineOfTwoMebibytes_isRefusedWithItsLine() async throws {
        let long = String(repeating: "1", count: 2 << 20)
        let csv = try text("long.csv", "timestamp,x,y,z\n0.0,0,0,1\n0.1,0,0," + long + "\n0.2,0,0,1\n")
        await assertInvalidInput(
            { _ = try await self.analyse(nil, accelerometer: csv) },
            mentions: ["long.csv line 3", "longer than 1048576 bytes"])
    }

    func test_aLongBadField_isShownShortAndEscapedInTheMessage() async throws {
        let field = "\u{1B}[2J" + String(repeating: "x", count: 100_000)
        let csv = try text("field.csv", "timestamp,x,y,z\n0.0,0,0,1\n0.1,0,0," + field + "\n")
        do {
            _ = try await analyse(nil, accelerometer: csv)
            XCTFail("no error")
        } catch SleepCycleSdkError.invalidInput(let message) {
            XCTAssertLessThan(message.message.count, 400, message.message)
            XCTAssertTrue(message.message.contains("field.csv line 3: '\\u{1B}[2Jxxx"), message.message)
            XCTAssertFalse(message.message.contains("\u{1B}"), message.message)
        }
    }

    // MARK: - A night is a night

    func test_sensorRowsThirtyDaysLater_areNotOneNight() async throws {
        var rows = (0..<600).map { String(format: "%.1f,0.01,0.02,1.0", Double($0) / 10) }
        rows += (0..<600).map { String(format: "%.1f,0.01,0.02,1.0", 30 * 86_400 + Double($0) / 10) }
        let csv = try text("month.csv", "timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n")
        await assertInvalidInput(
            { _ = try await self.analyse(nil, accelerometer: csv) },
            mentions: ["month.csv line 602", "not one night", "--split-nights"])
    }

    func test_aGapOfTenHoursBetweenSensorRows_isNotOneNight() async throws {
        var rows = (0..<600).map { String(format: "%.1f,0.01,0.02,1.0", Double($0) / 10) }
        rows += (0..<600).map { String(format: "%.1f,0.01,0.02,1.0", 36_000 + Double($0) / 10) }
        let csv = try text("gap.csv", "timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n")
        await assertInvalidInput(
            { _ = try await self.analyse(nil, accelerometer: csv) },
            mentions: ["gap.csv line 602", "10.0 hours after the row before it (line 601)"])
    }

    // MARK: - Hygiene

    func test_sensorRowsWrittenTwice_orAtOneInstant_areCountedInAWarning() async throws {
        let audio = try audio("quiet.wav", tone(seconds: 120), format: .wav16)
        var rows: [String] = []
        for tenth in 0..<600 {
            let row = String(format: "%.1f,0.01,0.02,1.0", Double(tenth) / 10)
            rows += [row, row]
        }
        rows += Array(repeating: "61.0,0.01,0.02,1.0", count: 1_000)
        let csv = try text("twice.csv", "timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n")
        let result = try await analyse(audio, accelerometer: csv)
        let warning = try XCTUnwrap(result.warnings.first { $0.kind == .duplicateSensorReadings })
        XCTAssertEqual(warning.count, 600 + 999)
        XCTAssertTrue(warning.message.contains("accelerometer"), warning.message)
    }

    // MARK: - No-signal nights say so

    func test_aDeadMicrophone_flatOrAllNaN_isNotHealthy_notStaged_andSaysWhy() async throws {
        let flat = try audio("flat.wav", [Float](repeating: 0, count: 16_000 * 300), format: .wav16)
        let nan = try audio("nan.wav", [Float](repeating: 0, count: 16_000 * 300), format: .wavFloat)
        var bytes = try Data(contentsOf: nan)
        let data = try XCTUnwrap(bytes.range(of: Data("data".utf8)))
        let first = data.upperBound + 4
        let nanBits = withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { Data($0) }
        for index in 0..<(16_000 * 300) {
            bytes.replaceSubrange(first + 4 * index..<first + 4 * index + 4, with: nanBits)
        }
        try bytes.write(to: nan)
        for file in [flat, nan] {
            let result = try await analyse(file)
            let statuses = Set(try XCTUnwrap(result.audioStatistics).healthIntervals.map(\.status))
            XCTAssertFalse(statuses.contains(.healthy), "\(file.lastPathComponent): \(statuses)")
            XCTAssertEqual(result.sleepStagePredictions, [], file.lastPathComponent)
            XCTAssertEqual(result.realTimeSleepStageIntervals, [], file.lastPathComponent)
            XCTAssertNil(result.statistics, file.lastPathComponent)
            XCTAssertEqual(result.scoreUnavailableReason, .noSignal, file.lastPathComponent)
            XCTAssertTrue(result.warnings.contains { $0.kind == .noAudioSignal }, "\(result.warnings)")
        }
        // A quiet but live room stays staged.
        let quiet = try audio("quiet.wav", tone(seconds: 300).map { $0 * 0.02 }, format: .wav16)
        let staged = try await analyse(quiet)
        XCTAssertFalse(staged.sleepStagePredictions.isEmpty)
        XCTAssertFalse(staged.warnings.contains { $0.kind == .noAudioSignal })
    }

    // MARK: - Valid input accepted

    func test_localTimesAcrossTheAutumnClockChange_areReadInOrder_andTheSkippedSpringHourIsRefused() async throws {
        // A logger writing Berlin wall-clock time every minute from 01:00 to 03:59 on 2026-10-25: 02:00-02:59 twice.
        var rows: [String] = []
        for hour in [1, 2, 2, 3] {
            for minute in 0..<60 { rows.append(String(format: "2026-10-25 %02d:%02d:00,0.01,0.02,1.0", hour, minute)) }
        }
        let autumn = try text("autumn.csv", "timestamp,x,y,z\n" + rows.joined(separator: "\n") + "\n")
        let berlin = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        let nightStart = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-10-24T23:00:00Z"))
        let reader = try AccelerometerCSVReader(url: autumn, startTime: nightStart, localZone: berlin, oneNight: true)
        var times: [Date] = []
        while let sample = try reader.next() { times.append(sample.timestamp) }
        XCTAssertEqual(times.count, 240)
        XCTAssertEqual(times.first, nightStart)
        XCTAssertEqual(zip(times, times.dropFirst()).map { $1.timeIntervalSince($0) }, Array(repeating: 60, count: 239))

        let source = FileDataSource(
            audio: nil, accelerometer: autumn, startTime: nightStart, sensorTimeZone: berlin)
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .error, apiKey: licence.apiKey, storageDirectory: directory.url.appendingPathComponent("state"),
            trustedIssuerKeys: [licence.trustedKey])
        try await analyzer.startAnalysis(
            config: SleepAnalysisConfig(useAudio: false, useAccelerometer: true), using: source)
        await source.waitUntilFinished()
        let result = try await analyzer.stopAnalysis()
        let sourceError = await analyzer.dataSourceError
        await analyzer.deinitialize()
        XCTAssertNil(sourceError)
        XCTAssertEqual(result.endTime.timeIntervalSince(result.startTime), 4 * 3_600, accuracy: 60)

        let spring = try text(
            "spring.csv", "timestamp,x,y,z\n2026-03-29 01:59:00,0,0,1\n2026-03-29 02:30:00,0,0,1\n")
        let springStart = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-03-28T23:00:00Z"))
        let springReader = try AccelerometerCSVReader(
            url: spring, startTime: springStart, unit: .g, localZone: berlin)
        XCTAssertNotNil(try springReader.next())
        XCTAssertThrowsError(try springReader.next()) { error in
            XCTAssertTrue("\(error)".contains("spring.csv line 3"), "\(error)")
            XCTAssertTrue("\(error)".contains("never happened in Europe/Berlin"), "\(error)")
        }
    }

    // MARK: - One rule for low sample rates

    func test_audioBelow4kHz_isRefusedBeforeASessionStarts() async throws {
        let slow = try audio("two-khz.wav", tone(seconds: 30, rate: 2_000), rate: 2_000, format: .wav16)
        await assertInvalidInput(
            { _ = try await self.analyse(slow) }, mentions: ["two-khz.wav", "2000 Hz", "4 kHz ... 384 kHz"])
    }
}

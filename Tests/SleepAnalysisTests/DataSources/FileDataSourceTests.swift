import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

final class FileDataSourceTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Replays `source` to the end and returns what the sink got.
    private func replay(_ source: FileDataSource) async throws -> RecordingSensorSink {
        let sink = RecordingSensorSink()
        try source.start(delivering: sink)
        await source.waitUntilFinished()
        return sink
    }

    /// Asserts the chunks cover `expected` exactly: contiguous frame indices from 0, same samples, same format.
    private func assertCoverage(
        _ chunks: [AudioChunk], equal expected: [Float], sampleRate: Int, channelCount: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        var nextFrame: Int64 = 0
        var samples: [Float] = []
        for chunk in chunks {
            XCTAssertEqual(chunk.firstFrameIndex, nextFrame, file: file, line: line)
            XCTAssertEqual(chunk.channelCount, channelCount, file: file, line: line)
            XCTAssertEqual(chunk.sampleRate, Double(sampleRate), file: file, line: line)
            XCTAssertLessThanOrEqual(chunk.frameCount, sampleRate / 2 + 1, file: file, line: line)
            nextFrame += Int64(chunk.frameCount)
            samples += chunk.samples
        }
        XCTAssertEqual(Int(nextFrame) * channelCount, expected.count, file: file, line: line)
        XCTAssertTrue(samples == expected, "replayed samples differ from the file's", file: file, line: line)
    }

    // MARK: - Audio coverage

    func test_fileSource_coversEveryFrame_monoAndStereo_atSeveralRates() async throws {
        let files = try DataSourceTestFiles()
        let cases: [(rate: Int, channels: Int, format: AudioFileWriter.Format)] = [
            (8_000, 1, .wav16), (44_100, 2, .flac16), (48_000, 1, .flac16), (48_000, 2, .wav16), (44_100, 1, .wavFloat),
        ]
        for (index, item) in cases.enumerated() {
            let frames = item.rate * 13 / 10 + 7  // 1.3 s plus a few frames: a short last chunk
            let written = try files.audio(
                "a\(index).\(item.format.fileExtension)",
                sampleRate: item.rate, channelCount: item.channels, frames: frames,
                format: item.format)
            let source = FileDataSource(audio: written.url, accelerometer: nil, startTime: start)
            XCTAssertEqual(source.channelCount, item.channels)
            XCTAssertEqual(source.audioSampleRate, Double(item.rate))
            XCTAssertEqual(source.audioDuration ?? 0, Double(frames) / Double(item.rate), accuracy: 1e-9)

            let sink = try await replay(source)

            assertCoverage(sink.audioChunks, equal: written.samples, sampleRate: item.rate, channelCount: item.channels)
            XCTAssertEqual(sink.audioChunks.count, 3)
            XCTAssertEqual(sink.finishCalls.count, 1)
            XCTAssertNil(sink.finishCalls.first ?? nil)
        }
    }

    func test_fileSource_replaysOggVorbis_withExactFrameCount() async throws {
        let files = try DataSourceTestFiles()
        let frames = 44_100 + 1_234
        let written = try files.audio(
            "a.ogg", sampleRate: 44_100, channelCount: 2, frames: frames, format: .oggVorbis)
        let source = FileDataSource(audio: written.url, accelerometer: nil, startTime: start)

        let sink = try await replay(source)

        XCTAssertEqual(source.channelCount, 2)
        XCTAssertEqual(sink.audioChunks.map(\.firstFrameIndex), [0, 22_050, 44_100])
        XCTAssertEqual(sink.audioChunks.reduce(0) { $0 + $1.frameCount }, frames)
        XCTAssertNil(sink.finishCalls.first ?? nil)
    }

    // MARK: - Pace

    func test_fileSource_speed50_takesExpectedTime_andMatchesFastReplay() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 1, frames: 8_000 * 10)
        let accelerometer = try files.text(
            "acc.csv", (0..<100).map { "\(Double($0) * 0.1),0,0,1" }.joined(separator: "\n"))

        let fastStart = DispatchTime.now().uptimeNanoseconds
        let fast = try await replay(FileDataSource(audio: audio.url, accelerometer: accelerometer, startTime: start))
        let fastSeconds = Double(DispatchTime.now().uptimeNanoseconds - fastStart) / 1e9
        let pacedStart = DispatchTime.now().uptimeNanoseconds
        let paced = try await replay(
            FileDataSource(
                audio: audio.url, accelerometer: accelerometer, startTime: start, pace: .speed(50)))
        let pacedSeconds = Double(DispatchTime.now().uptimeNanoseconds - pacedStart) / 1e9

        // 10 s of recording at 50x: 0.2 s of waiting (generous upper bound for a loaded machine).
        XCTAssertGreaterThanOrEqual(pacedSeconds, 0.19)
        XCTAssertLessThan(pacedSeconds, 3)
        XCTAssertLessThan(fastSeconds, pacedSeconds)
        XCTAssertEqual(paced.audioChunks.map(\.samples), fast.audioChunks.map(\.samples))
        XCTAssertEqual(paced.audioChunks.map(\.firstFrameIndex), fast.audioChunks.map(\.firstFrameIndex))
        XCTAssertEqual(paced.accelerometerSamples, fast.accelerometerSamples)
        XCTAssertEqual(paced.items.count, fast.items.count)
    }

    func test_fileSource_rejects_nonPositiveSpeed_atStart() throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 1, frames: 800)
        for speed in [0, -1, Double.nan, .infinity] {
            let source = FileDataSource(audio: audio.url, accelerometer: nil, pace: .speed(speed))
            XCTAssertThrowsError(try source.start(delivering: RecordingSensorSink())) { error in
                guard case .invalidConfiguration = error as? SleepCycleSdkError else {
                    return XCTFail("unexpected \(error)")
                }
            }
        }
    }

    // MARK: - Interleaving

    func test_fileSource_interleavesSensorRows_inTimeOrder() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 2, frames: 8_000 * 3)
        // Accelerometer at 10 Hz from -0.3 s to 3.4 s (past the audio's end), heart rate every 0.5 s (ties with
        // chunk ends), activity counts every 1 s with absolute timestamps.
        let accelerometer = try files.text(
            "acc.csv",
            "timestamp,x,y,z\n"
                + stride(from: -3, through: 34, by: 1).map { "\(Double($0) / 10),0,0,1" }.joined(separator: "\n"))
        let heartRate = try files.text(
            "hr.csv",
            stride(from: 0, through: 3, by: 0.5).map { "\($0),60" }
                .joined(separator: "\n"))
        let activity = try files.text("act.csv", (0..<4).map { "\(1_700_000_000 + $0),\($0)" }.joined(separator: "\n"))
        let source = FileDataSource(
            audio: audio.url, accelerometer: accelerometer, heartRate: heartRate,
            activityCounts: activity, startTime: start)

        let sink = try await replay(source)

        XCTAssertEqual(sink.accelerometerSamples.count, 38)
        XCTAssertEqual(sink.heartRateSamples.count, 7)
        XCTAssertEqual(sink.activityCountSamples.count, 4)
        XCTAssertNil(sink.finishCalls.first ?? nil)
        // Each item is complete, in a live capture, no earlier than the previous one: readings at their time,
        // audio chunks at their end. Every reading before a chunk's end comes before the chunk.
        var completedUpTo = Date.distantPast
        var readingsAfterLastChunk: [Date] = []
        for item in sink.items {
            switch item {
            case .audio(let chunk):
                let end = start.addingTimeInterval(Double(chunk.firstFrameIndex + Int64(chunk.frameCount)) / 8_000)
                XCTAssertTrue(readingsAfterLastChunk.allSatisfy { $0 < end })
                XCTAssertGreaterThanOrEqual(end, completedUpTo)
                completedUpTo = end
                readingsAfterLastChunk = []
            case .accelerometer(let samples):
                readingsAfterLastChunk += samples.map(\.timestamp)
            case .heartRate(let samples):
                readingsAfterLastChunk += samples.map(\.timestamp)
            case .activityCounts(let samples):
                readingsAfterLastChunk += samples.map(\.timestamp)
            }
            if !readingsAfterLastChunk.isEmpty {
                XCTAssertEqual(readingsAfterLastChunk, readingsAfterLastChunk.sorted())
                XCTAssertGreaterThanOrEqual(
                    readingsAfterLastChunk[0],
                    completedUpTo == .distantPast
                        ? .distantPast : completedUpTo.addingTimeInterval(-0.5 - 1e-6))
            }
        }
        let allReadingTimes = sink.items.flatMap { item -> [Date] in
            switch item {
            case .audio: []
            case .accelerometer(let samples): samples.map(\.timestamp)
            case .heartRate(let samples): samples.map(\.timestamp)
            case .activityCounts(let samples): samples.map(\.timestamp)
            }
        }
        XCTAssertEqual(allReadingTimes, allReadingTimes.sorted(), "readings of all kinds merge in time order")
        XCTAssertEqual(sink.accelerometerSamples.last?.timestamp.timeIntervalSince(start) ?? 0, 3.4, accuracy: 1e-6)
    }

    func test_fileSource_sensorOnly_deliversEverything_andHasNoChannels() async throws {
        let files = try DataSourceTestFiles()
        let accelerometer = try files.text(
            "acc.csv",
            "# units: m/s^2\n"
                + (0..<5_000).map { "\(Double($0) * 0.02),0,0,9.80665" }.joined(separator: "\n"))
        let source = FileDataSource(audio: nil, accelerometer: accelerometer, startTime: start, pace: .speed(1_000))
        XCTAssertEqual(source.channelCount, 0)

        let sink = try await replay(source)

        XCTAssertEqual(sink.accelerometerSamples.count, 5_000)
        XCTAssertTrue(sink.accelerometerSamples.allSatisfy { abs($0.z - 1) < 1e-12 })
        XCTAssertTrue(sink.audioChunks.isEmpty)
        XCTAssertTrue(
            sink.items.allSatisfy { item in
                if case .accelerometer(let batch) = item {
                    batch.count <= SensorFileStreams.maximumBatch
                } else {
                    false
                }
            })
        XCTAssertEqual(sink.finishCalls.count, 1)
    }

    func test_fileSource_startTime_isExplicitOrCreationTime() async throws {
        let files = try DataSourceTestFiles()
        let heartRate = try files.text("hr.csv", "timestamp,bpm\n0,60\n2.5,61\n")
        let before = Date()
        let implicit = FileDataSource(audio: nil, accelerometer: nil, heartRate: heartRate)
        let after = Date()
        let explicit = FileDataSource(audio: nil, accelerometer: nil, heartRate: heartRate, startTime: start)

        let implicitSink = try await replay(implicit)
        let explicitSink = try await replay(explicit)

        XCTAssertTrue((before...after).contains(implicit.startTime))
        XCTAssertEqual(implicitSink.heartRateSamples.first?.timestamp, implicit.startTime)
        XCTAssertEqual(explicit.startTime, start)
        XCTAssertEqual(explicitSink.heartRateSamples.map(\.timestamp), [start, start.addingTimeInterval(2.5)])
    }

    // MARK: - Errors

    func test_fileSource_throwsAtStart_forMissingUnknownOrNoInput() throws {
        let files = try DataSourceTestFiles()
        let text = try files.text("notes.wav", "this is not audio at all, just text pretending to be a wav file")
        let badHeader = try files.text("acc.csv", "timestamp,x,y\n")
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 1, frames: 800)
        let sources = [
            FileDataSource(audio: files.url("missing.flac"), accelerometer: nil),
            FileDataSource(audio: text, accelerometer: nil),
            FileDataSource(audio: audio.url, accelerometer: files.url("missing.csv")),
            FileDataSource(audio: nil, accelerometer: badHeader),
        ]
        for source in sources {
            let sink = RecordingSensorSink()
            XCTAssertThrowsError(try source.start(delivering: sink)) { error in
                guard case .invalidInput = error as? SleepCycleSdkError else { return XCTFail("unexpected \(error)") }
            }
            XCTAssertTrue(sink.items.isEmpty)
            XCTAssertTrue(sink.finishCalls.isEmpty, "a source that failed to start never finishes its sink")
        }
        XCTAssertThrowsError(
            try FileDataSource(audio: nil, accelerometer: nil).start(delivering: RecordingSensorSink()))
    }

    func test_fileSource_finishesWithError_forTruncatedFLAC() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.flac", sampleRate: 16_000, channelCount: 1, frames: 16_000 * 4, format: .flac16)
        try files.truncate(audio.url, to: 0.5)

        let sink = RecordingSensorSink()
        try FileDataSource(audio: audio.url, accelerometer: nil, startTime: start).start(delivering: sink)
        await waitForFinish(sink)

        XCTAssertEqual(sink.finishCalls.count, 1)
        guard case .invalidInput(let message)? = sink.finishCalls.first ?? nil else {
            return XCTFail("expected invalidInput, got \(sink.finishCalls)")
        }
        XCTAssertTrue(message.message.contains("a.flac"), message.message)
        let delivered = sink.audioChunks.reduce(0) { $0 + $1.frameCount }
        XCTAssertLessThan(delivered, 16_000 * 4)
    }

    func test_fileSource_replaysATruncatedWAVForWhatItHolds_andReportsTheHeadersLength() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 16_000, channelCount: 2, frames: 16_000)
        try files.truncate(audio.url, to: 0.6)

        let source = FileDataSource(audio: audio.url, accelerometer: nil)
        let sink = RecordingSensorSink()
        try source.start(delivering: sink)
        await waitForFinish(sink)

        XCTAssertEqual(sink.finishCalls.count, 1)
        XCTAssertNil(sink.finishCalls.first ?? nil)
        let delivered = Int64(sink.audioChunks.reduce(0) { $0 + $1.frameCount })
        XCTAssertLessThan(delivered, 16_000)
        XCTAssertGreaterThan(delivered, 9_000)
        let disagreement = try XCTUnwrap(source.audioLengthDisagreement)
        XCTAssertEqual(disagreement.read, delivered)
        XCTAssertEqual(disagreement.declared, 16_000, accuracy: 16)
    }

    func test_fileSource_finishesWithLineError_forMalformedRowMidFile() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 1, frames: 8_000 * 3)
        var rows = (0..<30).map { "\(Double($0) * 0.1),0,0,1" }
        rows[14] = "1.4,0,zero,1"
        let accelerometer = try files.text("acc.csv", "timestamp,x,y,z\n" + rows.joined(separator: "\n"))
        let sink = RecordingSensorSink()
        let source = FileDataSource(audio: audio.url, accelerometer: accelerometer, startTime: start)

        try source.start(delivering: sink)
        await source.waitUntilFinished()

        XCTAssertEqual(sink.finishCalls.count, 1)
        guard case .invalidInput(let message)? = sink.finishCalls.first ?? nil else {
            return XCTFail("expected invalidInput, got \(sink.finishCalls)")
        }
        XCTAssertTrue(message.message.contains("acc.csv line 16"), message.message)
        XCTAssertEqual(sink.accelerometerSamples.count, 14, "every good row before the bad one was delivered")
    }

    // MARK: - Stop

    func test_fileSource_stopsPromptly_midReplay() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 1, frames: 8_000 * 60)
        let source = FileDataSource(audio: audio.url, accelerometer: nil, startTime: start, pace: .realTime)
        let firstChunk = expectation(description: "first chunk")
        firstChunk.assertForOverFulfill = false
        let sink = RecordingSensorSink { _ in firstChunk.fulfill() }

        try source.start(delivering: sink)
        await fulfillment(of: [firstChunk], timeout: 5)
        let stopAt = DispatchTime.now().uptimeNanoseconds
        source.stop()
        await source.waitUntilFinished()
        let stopSeconds = Double(DispatchTime.now().uptimeNanoseconds - stopAt) / 1e9

        XCTAssertLessThan(stopSeconds, 1, "a paced wait is cut short (60 s of audio were left)")
        XCTAssertLessThan(sink.audioChunks.count, 10)
        XCTAssertEqual(sink.finishCalls.count, 1)
        XCTAssertNil(sink.finishCalls.first ?? nil)
    }

    func test_fileSource_canReplayAgain_afterFinishing() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.flac", sampleRate: 8_000, channelCount: 1, frames: 9_000, format: .flac16)
        let source = FileDataSource(audio: audio.url, accelerometer: nil, startTime: start)

        let first = try await replay(source)
        let second = try await replay(source)

        XCTAssertEqual(first.audioChunks.map(\.samples), second.audioChunks.map(\.samples))
        XCTAssertEqual(second.audioChunks.first?.firstFrameIndex, 0)
    }

    private func waitForFinish(_ sink: RecordingSensorSink) async {
        for _ in 0..<500 where sink.finishCalls.isEmpty { try? await Task.sleep(nanoseconds: 10_000_000) }
    }
}

import CALSA
import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Live capture through ALSA's `file` plugin over a `null` slave: the plugin replaces what the (silent, instant)
/// null device captures with the frames of a raw S16_LE file, so capture is tested without a sound card.
final class LiveDataSourceTests: XCTestCase {
    /// Writes `frames` frames of distinct S16 values and returns the file and the values as Floats.
    private func rawCapture(
        _ files: DataSourceTestFiles, frames: Int, channelCount: Int
    ) throws
        -> (url: URL, samples: [Float])
    {
        var values: [Int16] = []
        for frame in 0..<frames {
            for channel in 0..<channelCount {
                values.append(Int16(truncatingIfNeeded: (frame * 13 + channel * 7_919) % 60_000 - 30_000))
            }
        }
        let url = files.url("capture.raw")
        try values.withUnsafeBytes { try Data($0).write(to: url) }
        return (url, values.map { Float($0) / 32_768 })
    }

    private func configuration(infile: URL) -> String {
        """
        pcm.sleepanalysis_test {
            type file
            slave.pcm { type null }
            file "/dev/null"
            infile "\(infile.path)"
            format "raw"
        }
        """
    }

    private func assertCapture(channelCount: Int, file: StaticString = #filePath, line: UInt = #line) async throws {
        let files = try DataSourceTestFiles()
        let frames = 16_000 + 123
        let raw = try rawCapture(files, frames: frames, channelCount: channelCount)
        let source = LiveDataSource(
            configuration: configuration(infile: raw.url), pcmName: "sleepanalysis_test",
            channelCount: channelCount, frameLimit: Int64(frames))
        let sink = RecordingSensorSink()
        XCTAssertTrue(source.isFinite, file: file, line: line)

        let before = Date()
        try source.start(delivering: sink)
        await source.waitUntilFinished()

        XCTAssertEqual(source.channelCount, channelCount, file: file, line: line)
        XCTAssertEqual(source.sampleRate, 16_000, "16 kHz is preferred when offered", file: file, line: line)
        XCTAssertGreaterThanOrEqual(source.startTime, before, file: file, line: line)
        var nextFrame: Int64 = 0
        for chunk in sink.audioChunks {
            XCTAssertEqual(chunk.firstFrameIndex, nextFrame, file: file, line: line)
            XCTAssertEqual(chunk.channelCount, channelCount, file: file, line: line)
            XCTAssertEqual(chunk.sampleRate, 16_000, file: file, line: line)
            nextFrame += Int64(chunk.frameCount)
        }
        XCTAssertEqual(nextFrame, Int64(frames), file: file, line: line)
        XCTAssertTrue(
            sink.audioChunks.flatMap(\.samples) == raw.samples, "captured samples differ from the file",
            file: file, line: line)
        XCTAssertEqual(sink.finishCalls.count, 1, file: file, line: line)
        XCTAssertNil(sink.finishCalls.first ?? nil, file: file, line: line)
    }

    func test_liveSource_capturesFilePlugin_mono() async throws {
        try await assertCapture(channelCount: 1)
    }

    func test_liveSource_capturesFilePlugin_stereo() async throws {
        try await assertCapture(channelCount: 2)
    }

    func test_liveSource_throwsTypedError_forNonexistentDevice() {
        let source = LiveDataSource(device: "sleepanalysis_no_such_device")
        let sink = RecordingSensorSink()

        XCTAssertThrowsError(try source.start(delivering: sink)) { error in
            guard case .dataSourceFailure(let message) = error as? SleepCycleSdkError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertTrue(message.message.contains("snd_pcm_open"), message.message)
        }
        XCTAssertTrue(sink.finishCalls.isEmpty)
    }

    func test_liveSource_rejectsBadChannelCount_andBadConfiguration() {
        XCTAssertThrowsError(try LiveDataSource(preferredChannelCount: 3).start(delivering: RecordingSensorSink()))
        let broken = LiveDataSource(configuration: "pcm.x { type", pcmName: "x", channelCount: 1, frameLimit: 10)
        XCTAssertThrowsError(try broken.start(delivering: RecordingSensorSink())) { error in
            guard case .dataSourceFailure(let message) = error as? SleepCycleSdkError else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertTrue(message.message.contains("snd_config_load"), message.message)
        }
    }

    func test_liveSource_recoversOverrun_andKeepsFrameCountContiguous() async throws {
        let files = try DataSourceTestFiles()
        let raw = try rawCapture(files, frames: 8_000, channelCount: 1)
        let calls = DataSourceLock(0)
        let recoveries = DataSourceLock(0)
        var alsa = ALSAFunctions.system
        let realRead = alsa.readInterleaved
        let realRecover = alsa.recover
        alsa.readInterleaved = { pcm, buffer, frames in
            calls.withLock { count -> Int in
                count += 1; return count
            } == 2 ? -Int(EPIPE) : realRead(pcm, buffer, frames)
        }
        alsa.recover = { pcm, code in
            recoveries.withLock { $0 += 1 }
            return realRecover(pcm, code)
        }
        let source = LiveDataSource(
            configuration: configuration(infile: raw.url), pcmName: "sleepanalysis_test",
            channelCount: 1, frameLimit: 8_000, alsa: alsa)
        let sink = RecordingSensorSink()

        try source.start(delivering: sink)
        await source.waitUntilFinished()

        XCTAssertEqual(recoveries.withLock { $0 }, 1)
        XCTAssertNil(sink.finishCalls.first ?? nil)
        let chunks = sink.audioChunks
        XCTAssertEqual(chunks.reduce(0) { $0 + $1.frameCount }, 8_000)
        XCTAssertEqual(chunks.map(\.firstFrameIndex), chunks.indices.map { Int64($0 * chunks[0].frameCount) })
        XCTAssertTrue(chunks.flatMap(\.samples) == raw.samples, "no frame lost or repeated around the overrun")
    }

    func test_liveSource_reportsVanishedDevice_throughSink() async throws {
        let files = try DataSourceTestFiles()
        let raw = try rawCapture(files, frames: 16_000, channelCount: 2)
        let calls = DataSourceLock(0)
        var alsa = ALSAFunctions.system
        let realRead = alsa.readInterleaved
        alsa.readInterleaved = { pcm, buffer, frames in
            calls.withLock { count -> Int in
                count += 1; return count
            } >= 3 ? -Int(ENODEV) : realRead(pcm, buffer, frames)
        }
        let source = LiveDataSource(
            configuration: configuration(infile: raw.url), pcmName: "sleepanalysis_test",
            channelCount: 2, frameLimit: nil, alsa: alsa)
        let sink = RecordingSensorSink()

        try source.start(delivering: sink)
        await source.waitUntilFinished()

        XCTAssertEqual(sink.audioChunks.count, 2, "audio read before the device vanished is delivered")
        XCTAssertEqual(sink.finishCalls.count, 1)
        guard case .dataSourceFailure(let message)? = sink.finishCalls.first ?? nil else {
            return XCTFail("expected dataSourceFailure, got \(sink.finishCalls)")
        }
        XCTAssertTrue(
            message.message.contains("unavailable") && message.message.contains("snd_pcm_readi"), message.message)
    }

    func test_liveSource_stopsPromptly_withoutFrameLimit() async throws {
        let files = try DataSourceTestFiles()
        let raw = try rawCapture(files, frames: 4_000, channelCount: 1)
        let source = LiveDataSource(
            configuration: configuration(infile: raw.url), pcmName: "sleepanalysis_test",
            channelCount: 1, frameLimit: nil)
        XCTAssertFalse(source.isFinite)
        let sink = RecordingSensorSink { [source] _ in source.stop() }

        try source.start(delivering: sink)
        await source.waitUntilFinished()

        XCTAssertGreaterThanOrEqual(sink.audioChunks.count, 1)
        XCTAssertLessThan(sink.audioChunks.count, 5)
        XCTAssertEqual(sink.finishCalls.count, 1)
        XCTAssertNil(sink.finishCalls.first ?? nil)
    }

    func test_liveSource_cancellingTheWait_stopsCapture_withinASecond() async throws {
        // Given a capture that runs until stopped
        let files = try DataSourceTestFiles()
        let raw = try rawCapture(files, frames: 4_000, channelCount: 1)
        let source = LiveDataSource(
            configuration: configuration(infile: raw.url), pcmName: "sleepanalysis_test",
            channelCount: 1, frameLimit: nil)
        let sink = RecordingSensorSink()
        let threadsBefore = LibraryThreadCounts.now
        try source.start(delivering: sink)

        // When the task waiting for it is cancelled
        let waiter = Task { await source.waitUntilFinished() }
        try await Task.sleep(nanoseconds: 200_000_000)
        let cancelled = Date()
        waiter.cancel()
        await waiter.value

        // Then capture has stopped within a second: the sink finished once, without an error, the thread is gone
        XCTAssertLessThan(Date().timeIntervalSince(cancelled), 1)
        XCTAssertEqual(sink.finishCalls.count, 1, "cancelling the wait must stop capture")
        XCTAssertNil(sink.finishCalls.first ?? nil)
        let after = await LibraryThreadCounts.waitUntil(atMost: threadsBefore, timeout: 1)
        XCTAssertTrue(after.isAtMost(threadsBefore), "the capture thread still runs: \(after)")
    }

    func test_liveSource_negotiates_S32AndFloat_andFallbackRate_whenPreferredAreRefused() async throws {
        let files = try DataSourceTestFiles()
        let values: [Int32] = (0..<4_800).map { Int32(truncatingIfNeeded: $0 &* 894_785 &- 2_000_000_000) }
        let floats: [Float] = (0..<4_800).map { Float($0 % 200 - 100) / 128 }
        let cases: [(refused: [snd_pcm_format_t], url: URL, expected: [Float])] = [
            ([SND_PCM_FORMAT_S16_LE], files.url("s32.raw"), values.map { Float(Double($0) / 2_147_483_648) }),
            ([SND_PCM_FORMAT_S16_LE, SND_PCM_FORMAT_S32_LE], files.url("float.raw"), floats),
        ]
        try values.withUnsafeBytes { try Data($0).write(to: cases[0].url) }
        try floats.withUnsafeBytes { try Data($0).write(to: cases[1].url) }
        for item in cases {
            var alsa = ALSAFunctions.system
            let realTestFormat = alsa.hwParamsTestFormat
            let realTestRate = alsa.hwParamsTestRate
            let refused = item.refused.map(\.rawValue)
            alsa.hwParamsTestFormat = { pcm, params, format in
                refused.contains(format.rawValue) ? -EINVAL : realTestFormat(pcm, params, format)
            }
            alsa.hwParamsTestRate = { pcm, params, rate in rate == 16_000 ? -EINVAL : realTestRate(pcm, params, rate) }
            let source = LiveDataSource(
                configuration: configuration(infile: item.url), pcmName: "sleepanalysis_test",
                channelCount: 1, frameLimit: 4_800, alsa: alsa)
            let sink = RecordingSensorSink()

            try source.start(delivering: sink)
            await source.waitUntilFinished()

            XCTAssertEqual(source.sampleRate, 48_000, "48 kHz is next when 16 kHz is refused")
            XCTAssertNil(sink.finishCalls.first ?? nil)
            XCTAssertTrue(sink.audioChunks.flatMap(\.samples) == item.expected, "samples differ for \(item.url)")
        }
    }

    func test_liveSource_reportsStalledDevice_throughSink() async throws {
        let files = try DataSourceTestFiles()
        let raw = try rawCapture(files, frames: 1_600, channelCount: 1)
        var alsa = ALSAFunctions.system
        alsa.wait = { _, _ in 0 }  // Every wait times out: the device delivers nothing.
        let source = LiveDataSource(
            configuration: configuration(infile: raw.url), pcmName: "sleepanalysis_test", channelCount: 1,
            frameLimit: nil, stallSeconds: 0.2, alsa: alsa)
        let sink = RecordingSensorSink()

        try source.start(delivering: sink)
        await source.waitUntilFinished()

        XCTAssertTrue(sink.audioChunks.isEmpty)
        guard case .dataSourceFailure(let message)? = sink.finishCalls.first ?? nil else {
            return XCTFail("expected dataSourceFailure, got \(sink.finishCalls)")
        }
        XCTAssertTrue(message.message.contains("no audio"), message.message)
    }
}

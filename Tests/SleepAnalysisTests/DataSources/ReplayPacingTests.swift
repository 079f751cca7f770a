import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// A paced replay waits on an injected monotonic clock, its speed is range-checked, and its deadlines saturate.
final class ReplayPacingTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Replays `source` to the end and returns what the sink got.
    private func replay(_ source: FileDataSource) async throws -> RecordingSensorSink {
        let sink = RecordingSensorSink()
        try source.start(delivering: sink)
        await source.waitUntilFinished()
        return sink
    }

    func test_realTimeReplay_runsOnAManualClock_withoutWallClockWaiting() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 1, frames: 8_000 * 60)
        let accelerometer = try files.text(
            "acc.csv", (0..<600).map { "\(Double($0) * 0.1),0,0,1" }.joined(separator: "\n"))
        let clock = ManualMonotonicClock(start: 5_000)

        let wallStart = DispatchTime.now().uptimeNanoseconds
        let paced = try await replay(
            FileDataSource(
                audio: audio.url, accelerometer: accelerometer, startTime: start, pace: .realTime, pacingClock: clock))
        let wallSeconds = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        let fast = try await replay(FileDataSource(audio: audio.url, accelerometer: accelerometer, startTime: start))

        // A minute of recording in real time, on the manual clock: a minute of clock time, one wait per chunk,
        // and far less than a minute on the wall clock.
        XCTAssertLessThan(wallSeconds, 20)
        XCTAssertEqual(clock.uptimeNanoseconds, 5_000 + 60_000_000_000)
        XCTAssertEqual(clock.waitCount, 120)
        XCTAssertEqual(paced.audioChunks.map(\.samples), fast.audioChunks.map(\.samples))
        XCTAssertEqual(paced.accelerometerSamples, fast.accelerometerSamples)
        XCTAssertEqual(paced.items.count, fast.items.count)
        XCTAssertNil(paced.finishCalls.first ?? nil)
    }

    func test_speed_outsideTheBounds_isAnInvalidConfiguration_namingThem() throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 1, frames: 800)
        for speed in [1e-12, 0.000_999, 1_000_001, 1e300] {
            let source = FileDataSource(
                audio: audio.url, accelerometer: nil, pace: .speed(speed), pacingClock: ManualMonotonicClock())
            XCTAssertThrowsError(try source.start(delivering: RecordingSensorSink()), "\(speed)") { error in
                guard case .invalidConfiguration(let why) = error as? SleepCycleSdkError else {
                    return XCTFail("unexpected \(error)")
                }
                XCTAssertTrue(why.contains("from 0.001 to 1000000"), why)
            }
        }
    }

    func test_speed_atTheBounds_replays_atThatSpeed() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.wav", sampleRate: 8_000, channelCount: 1, frames: 8_000)
        for (speed, clockNanoseconds) in [(0.001, UInt64(1_000_000_000_000)), (1_000_000, 1_000)] {
            let clock = ManualMonotonicClock()
            let sink = try await replay(
                FileDataSource(
                    audio: audio.url, accelerometer: nil, startTime: start, pace: .speed(speed), pacingClock: clock))
            XCTAssertEqual(sink.audioChunks.count, 2, "\(speed)")
            XCTAssertEqual(clock.uptimeNanoseconds, clockNanoseconds, "one second of audio at \(speed)x")
        }
    }

    /// The longest span one night may hold (rows every 3 hours for 24 hours; a longer span or gap is not one night)
    /// at a thousandth of real time: 8.6e16 ns of waiting, passed on the injected clock (a row centuries away is
    /// refused by the CSV reader; the deadline arithmetic saturates, see below).
    func test_slowestSpeed_overADayOfRows_waitsOnTheInjectedClock() async throws {
        let files = try DataSourceTestFiles()
        let start = Date(timeIntervalSince1970: 1_796_000_000)
        let rows = stride(from: 0, through: 86_400, by: 10_800).map { "\($0),0,0,1\n" }.joined()
        let accelerometer = try files.text("acc.csv", "timestamp,x,y,z\n" + rows)
        let clock = ManualMonotonicClock()

        let sink = try await replay(
            FileDataSource(
                audio: nil, accelerometer: accelerometer, startTime: start, pace: .speed(0.001), pacingClock: clock))

        XCTAssertEqual(sink.accelerometerSamples.count, 9)
        XCTAssertNil(sink.finishCalls.first ?? nil)
        XCTAssertEqual(Double(clock.uptimeNanoseconds), 86_400 / 0.001 * 1e9, accuracy: 1e12)
    }

    func test_deadline_saturates_and_never_traps() {
        XCTAssertEqual(ReplayPacer.deadline(origin: 7, mediaSeconds: 1.5, speed: 2), 750_000_007)
        XCTAssertEqual(ReplayPacer.deadline(origin: .max - 10, mediaSeconds: 1, speed: 1), .max)
        XCTAssertEqual(ReplayPacer.deadline(origin: 0, mediaSeconds: 1e30, speed: 0.001), .max)
        XCTAssertEqual(ReplayPacer.deadline(origin: 0, mediaSeconds: .infinity, speed: 1), .max)
        XCTAssertEqual(ReplayPacer.deadline(origin: 0, mediaSeconds: .nan, speed: 1), .max)
        XCTAssertEqual(ReplayPacer.deadline(origin: 3, mediaSeconds: -1, speed: 1), 3)
    }
}

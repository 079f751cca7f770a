import Foundation
import XCTest

@testable import SleepAnalysis

final class AudioHealthMonitorTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// Room tone quantised to 16 bits, as a real converter delivers it.
    private func roomTone(seconds: Double, rms: Float, seed: UInt64) -> [Float] {
        var signals = SyntheticSignals(seed: seed)
        return signals.roomTone(seconds: seconds, rms: rms).map { ($0 * 32_768).rounded() / 32_768 }
    }

    /// Feeds `samples` in one-second batches; returns each update with the end time of the batch that reported it.
    private func run(
        _ monitor: AudioHealthMonitor, _ samples: [Float], from: Date? = nil
    ) throws
        -> [(update: AudioHealthUpdate, reportedAt: Date)]
    {
        var out: [(AudioHealthUpdate, Date)] = []
        for batch in try SyntheticSignals.batches(samples, start: from ?? start) {
            out += monitor.process(batch).map { ($0, batch.endTime) }
        }
        return out
    }

    private func assertCovers(
        _ statistics: AudioStatistics, from: Date, to: Date, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let intervals = statistics.healthIntervals
        XCTAssertEqual(intervals.first?.interval.start, from, file: file, line: line)
        XCTAssertEqual(intervals.last?.interval.end, to, file: file, line: line)
        for (a, b) in zip(intervals, intervals.dropFirst()) {
            XCTAssertEqual(a.interval.end, b.interval.start, "gap or overlap", file: file, line: line)
            XCTAssertNotEqual(a.status, b.status, "repeated status", file: file, line: line)
        }
    }

    func test_audioHealth_reports_flatline_within30s_then_healthy_when_mic_goes_dead_and_comes_back() throws {
        // Given 20 s of room tone, 40 s of digital silence, 20 s of room tone
        let monitor = try AudioHealthMonitor(sessionId: UUID())
        let audio =
            roomTone(seconds: 20, rms: 0.0005, seed: 1) + [Float](repeating: 0, count: 40 * 16_000)
            + roomTone(seconds: 20, rms: 0.0005, seed: 2)
        // When it is monitored
        let updates = try run(monitor, audio)
        // Then: healthy from the start, flatline from 20 s (reported before 50 s), healthy again from 60 s
        XCTAssertEqual(updates.map(\.update.status), [.healthy, .flatline, .healthy])
        XCTAssertEqual(updates[1].update.timestamp.timeIntervalSince(start), 20, accuracy: 0.26)
        XCTAssertLessThanOrEqual(updates[1].reportedAt.timeIntervalSince(start), 50)
        XCTAssertEqual(updates[2].update.timestamp.timeIntervalSince(start), 60, accuracy: 0.26)
        let end = start.addingTimeInterval(80)
        let statistics = monitor.finish(at: end)
        XCTAssertEqual(statistics.healthIntervals.map(\.status), [.healthy, .flatline, .healthy])
        assertCovers(statistics, from: start, to: end)
    }

    func test_audioHealth_reports_flatline_for_constant_dc_and_one_lsb_dither() throws {
        let monitor = try AudioHealthMonitor(sessionId: UUID())
        var signals = SyntheticSignals(seed: 3)
        let dither = (0..<(15 * 16_000)).map { _ in (signals.uniform() > 0 ? 1 : 0) / Float(32_768) }
        let audio =
            roomTone(seconds: 10, rms: 0.0005, seed: 4) + [Float](repeating: 0.25, count: 15 * 16_000)
            + roomTone(seconds: 10, rms: 0.0005, seed: 5) + dither + roomTone(seconds: 5, rms: 0.0005, seed: 6)
        let updates = try run(monitor, audio)
        XCTAssertEqual(updates.map(\.update.status), [.healthy, .flatline, .healthy, .flatline, .healthy])
        XCTAssertEqual(updates[1].update.timestamp.timeIntervalSince(start), 10, accuracy: 0.26)
        XCTAssertEqual(updates[3].update.timestamp.timeIntervalSince(start), 35, accuracy: 0.26)
    }

    func test_audioHealth_stays_healthy_for_quiet_room_tone_at_minus70dBFS() throws {
        let monitor = try AudioHealthMonitor(sessionId: UUID())
        // -70 dBFS RMS, quantised to 16 bits
        let updates = try run(monitor, roomTone(seconds: 120, rms: 0.000_316, seed: 7))
        XCTAssertEqual(updates.map(\.update.status), [.healthy])
        XCTAssertEqual(monitor.finish(at: start.addingTimeInterval(120)).healthIntervals.map(\.status), [.healthy])
    }

    func test_audioHealth_reports_missingInput_after_the_timeout_when_the_source_stops() throws {
        // Given a source that delivers 10 s and then stops
        let configuration = AudioHealthConfiguration(missingInputTimeout: 30)
        let monitor = try AudioHealthMonitor(sessionId: UUID(), configuration: configuration, startTime: start)
        _ = try run(monitor, roomTone(seconds: 10, rms: 0.0005, seed: 8))
        // When the pipeline's timer checks
        XCTAssertEqual(monitor.checkForMissingInput(now: start.addingTimeInterval(39)), [])
        let missing = monitor.checkForMissingInput(now: start.addingTimeInterval(41))
        // Then missing input is reported once, from the last sample
        XCTAssertEqual(missing.map(\.status), [.missingInput])
        XCTAssertEqual(missing.first?.timestamp, start.addingTimeInterval(10))
        XCTAssertEqual(monitor.checkForMissingInput(now: start.addingTimeInterval(60)), [])
        // And audio coming back is healthy again
        let back = try run(monitor, roomTone(seconds: 5, rms: 0.0005, seed: 9), from: start.addingTimeInterval(70))
        XCTAssertEqual(back.map(\.update.status), [.healthy])
        XCTAssertEqual(back.first?.update.timestamp, start.addingTimeInterval(70))
        let end = start.addingTimeInterval(75)
        let statistics = monitor.finish(at: end)
        XCTAssertEqual(statistics.healthIntervals.map(\.status), [.healthy, .missingInput, .healthy])
        assertCovers(statistics, from: start, to: end)
    }

    func test_audioHealth_reports_missingInput_for_a_gap_in_batch_times() throws {
        let configuration = AudioHealthConfiguration(missingInputTimeout: 20)
        let monitor = try AudioHealthMonitor(sessionId: UUID(), configuration: configuration)
        var updates = try run(monitor, roomTone(seconds: 5, rms: 0.0005, seed: 10))
        updates += try run(monitor, roomTone(seconds: 5, rms: 0.0005, seed: 11), from: start.addingTimeInterval(35))
        XCTAssertEqual(updates.map(\.update.status), [.healthy, .missingInput, .healthy])
        XCTAssertEqual(updates[1].update.timestamp, start.addingTimeInterval(5))
        XCTAssertEqual(updates[2].update.timestamp, start.addingTimeInterval(35))
        // A short gap is not reported
        let short = try run(monitor, roomTone(seconds: 5, rms: 0.0005, seed: 12), from: start.addingTimeInterval(45))
        XCTAssertEqual(short.count, 0)
    }

    func test_audioHealth_intervals_cover_the_session_when_input_ends_before_stop() throws {
        let configuration = AudioHealthConfiguration(missingInputTimeout: 60)
        let monitor = try AudioHealthMonitor(sessionId: UUID(), configuration: configuration)
        _ = try run(monitor, roomTone(seconds: 30, rms: 0.0005, seed: 13))
        let end = start.addingTimeInterval(200)
        let statistics = monitor.finish(at: end)
        XCTAssertEqual(statistics.healthIntervals.map(\.status), [.healthy, .missingInput])
        XCTAssertEqual(statistics.healthIntervals.last?.interval.start, start.addingTimeInterval(30))
        assertCovers(statistics, from: start, to: end)
    }

    func test_audioHealth_whole_session_missing_when_nothing_arrives() throws {
        let monitor = try AudioHealthMonitor(
            sessionId: UUID(), configuration: AudioHealthConfiguration(), startTime: start)
        XCTAssertEqual(monitor.checkForMissingInput(now: start.addingTimeInterval(61)).map(\.status), [.missingInput])
        let end = start.addingTimeInterval(100)
        let statistics = monitor.finish(at: end)
        XCTAssertEqual(statistics.healthIntervals.map(\.status), [.missingInput])
        assertCovers(statistics, from: start, to: end)
    }

    func test_audioHealthConfiguration_rejects_a_flatline_time_beyond_30s() {
        XCTAssertThrowsError(
            try AudioHealthMonitor(
                sessionId: UUID(), configuration: AudioHealthConfiguration(flatlineSeconds: 45)))
    }
}

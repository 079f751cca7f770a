import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Audio health on the generated fixture clips (Tools/fixtures/make_fixtures.py), read through libsndfile.
final class AudioHealthFixtureTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func updates(for name: String) throws -> (updates: [AudioHealthUpdate], statistics: AudioStatistics) {
        let reader = try AudioFileReader(url: FixturePaths.fixtures.appendingPathComponent(name))
        XCTAssertEqual(reader.sampleRate, 16_000)
        let monitor = try AudioHealthMonitor(sessionId: UUID(), startTime: start)
        var updates: [AudioHealthUpdate] = []
        var offset = 0
        while let block = try reader.read(maxFrames: 16_000) {
            updates += monitor.process(
                samples: block, sampleRate: 16_000,
                startTime: start.addingTimeInterval(Double(offset) / 16_000))
            offset += block.count
        }
        return (updates, monitor.finish(at: start.addingTimeInterval(Double(offset) / 16_000)))
    }

    private func seconds(_ update: AudioHealthUpdate) -> Double { update.timestamp.timeIntervalSince(start) }

    func test_audioHealth_flags_the_dead_mic_fixture_from_10s_to_22s() throws {
        let (updates, statistics) = try updates(for: "clip_dead_mic.flac")
        XCTAssertEqual(updates.map(\.status), [.healthy, .flatline, .healthy])
        XCTAssertEqual(seconds(updates[1]), 10, accuracy: 0.26)
        XCTAssertEqual(seconds(updates[2]), 22, accuracy: 0.26)
        XCTAssertEqual(statistics.healthIntervals.map(\.status), [.healthy, .flatline, .healthy])
        XCTAssertEqual(statistics.healthIntervals.last?.interval.end, start.addingTimeInterval(30))
    }

    func test_audioHealth_flags_the_stuck_dc_fixture_from_8s_to_18s() throws {
        let (updates, _) = try updates(for: "clip_stuck_dc.flac")
        XCTAssertEqual(updates.map(\.status), [.healthy, .flatline, .healthy])
        XCTAssertEqual(seconds(updates[1]), 8, accuracy: 0.26)
        XCTAssertEqual(seconds(updates[2]), 18, accuracy: 0.26)
    }

    func test_audioHealth_keeps_the_quiet_room_fixture_healthy() throws {
        let (updates, statistics) = try updates(for: "clip_quiet_room.flac")
        XCTAssertEqual(updates.map(\.status), [.healthy])
        XCTAssertEqual(statistics.healthIntervals.count, 1)
    }
}

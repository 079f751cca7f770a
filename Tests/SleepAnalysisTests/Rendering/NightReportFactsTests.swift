import Foundation
import SleepAnalysis
import XCTest

/// The audio-health line of the text and HTML reports says how long each problem lasted, which its start and end
/// clock times (to the minute) do not show when it is short.
final class NightReportFactsTests: XCTestCase {
    func test_audio_health_problems_carry_their_length() throws {
        // Given: a 12-second flat line, then 20 minutes without input, in a night at 23:00 UTC.
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-12-01T23:00:00Z"))
        let stretches: [(AudioHealthStatus, Double, Double)] = [
            (.healthy, 0, 130), (.flatline, 130, 142), (.healthy, 142, 600), (.missingInput, 600, 1_800),
            (.healthy, 1_800, 3_600),
        ]
        let result = AnalysisResult(
            sessionId: UUID(), startTime: start, endTime: start.addingTimeInterval(3_600),
            timeZone: try XCTUnwrap(TimeZone(identifier: "UTC")),
            audioStatistics: AudioStatistics(
                healthIntervals: stretches.map {
                    AudioHealthInterval(
                        status: $0.0,
                        interval: DateInterval(
                            start: start.addingTimeInterval($0.1), end: start.addingTimeInterval($0.2)))
                }))

        // When
        let line = NightReportFacts.observations(result).first { $0.label == "Audio health" }

        // Then
        XCTAssertEqual(line?.value, "flatline 23:02–23:02 (12 s), missingInput 23:10–23:30 (20 min)")
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// A time range that holds no data is an error, never an empty night: a stop before the session's start, a start
/// after the recording's end.
final class EmptyTimeRangeTests: InitializedAnalyzerTestCase {
    override var analyzerName: String { "empty-range" }

    func test_stopAnalysis_atOrBeforeTheSessionsStart_throwsEmptyTimeRange_andTheSessionGoesOn() async throws {
        // Given a session that starts a minute into a 4-minute night, replayed to its end
        let start = AnalyzerNights.startTime(of: 0)
        let source = FileDataSource(
            audio: try AnalyzerNights.write(index: 0, into: storage.url), accelerometer: nil, startTime: start)
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAudio: true), at: start + 60, using: source)
        await source.waitUntilFinished()

        // When it is stopped before its start, or at it
        for end in [start + 30, start + 60] {
            do {
                let result = try await analyzer.stopAnalysis(at: end)
                XCTFail("stopping at \(end) returned \(result.endTime.timeIntervalSince(result.startTime)) s")
            } catch SleepCycleSdkError.emptyTimeRange(let why) {
                // Then the error says which times, in a message a person reads
                XCTAssertTrue(why.contains("not after its start"), why)
                let message = SleepCycleSdkError.emptyTimeRange(why).localizedDescription
                XCTAssertTrue(message.hasPrefix("The time range holds no data"), message)
            }
        }

        // And the session goes on: a stop at the end returns its three minutes
        let result = try await analyzer.stopAnalysis()
        XCTAssertEqual(result.startTime, start + 60)
        XCTAssertEqual(result.endTime.timeIntervalSince(start), Double(AnalyzerNights.nightSeconds), accuracy: 0.05)
    }

    func test_startAnalysis_afterTheRecordingsEnd_throwsEmptyTimeRange_andStartsNothing() async throws {
        // Given a 4-minute recording
        let start = AnalyzerNights.startTime(of: 1)
        let source = FileDataSource(
            audio: try AnalyzerNights.write(index: 1, into: storage.url), accelerometer: nil, startTime: start)

        // When a session would start at its end, or after it, the start is refused
        for sessionStart in [start + 240, start + 300] {
            do {
                let sessionId = try await analyzer.startAnalysis(
                    config: SleepAnalysisConfig(useAudio: true), at: sessionStart, using: source)
                XCTFail("a session after the recording started: \(sessionId)")
                _ = try? await analyzer.stopAnalysis()
            } catch SleepCycleSdkError.emptyTimeRange(let why) {
                XCTAssertTrue(why.contains("after the end of the recording"), why)
            }
        }

        // Then nothing runs and nothing is left to resume
        let state = await analyzer.currentState
        XCTAssertEqual(state, .initialized)
        let resumable = await analyzer.isResumePossible()
        XCTAssertFalse(resumable)
    }

    func test_aSessionAfterTheEndOfASensorRecording_stopsWithEmptyTimeRange_andIsNotKept() async throws {
        // Given a minute of accelerometer readings (a length no header tells) and a session starting after them
        let start = AnalyzerNights.startTime(of: 2)
        var lines = ["# units: g", "timestamp,x,y,z"]
        for index in 0..<600 {
            let time = Double(index) / 10
            lines.append(String(format: "%.1f,%.4f,%.4f,%.4f", time, 0.002 * sin(time * 3), 0.01, 1.0))
        }
        let csv = storage.url.appendingPathComponent("accelerometer.csv")
        try (lines.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        let source = FileDataSource(audio: nil, accelerometer: csv, startTime: start)
        try await analyzer.startAnalysis(
            config: SleepAnalysisConfig(useAudio: false, useAccelerometer: true), at: start + 120, using: source)
        await source.waitUntilFinished()

        // When it is stopped, it has no night to return
        do {
            let result = try await analyzer.stopAnalysis()
            XCTFail("an empty session returned \(result.endTime.timeIntervalSince(result.startTime)) s")
        } catch SleepCycleSdkError.emptyTimeRange(let why) {
            XCTAssertTrue(why.contains("got no data"), why)
        }

        // Then the session is over, and nothing is left to resume
        let state = await analyzer.currentState
        XCTAssertEqual(state, .initialized)
        let resumable = await analyzer.isResumePossible()
        XCTAssertFalse(resumable)
    }
}

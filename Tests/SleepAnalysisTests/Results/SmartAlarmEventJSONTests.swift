import Foundation
import XCTest

@testable import SleepAnalysis

final class SmartAlarmEventJSONTests: XCTestCase {
    private let sessionId = UUID()

    func test_smartAlarmEventJSON_encodes_armed_without_reason() throws {
        let event = SmartAlarmEvent(
            type: .armed, timestamp: Date(timeIntervalSince1970: 1_796_101_200), sessionId: sessionId)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = String(decoding: try encoder.encode(event.json), as: UTF8.self)
        XCTAssertEqual(text, #"{"time":"2026-12-01T05:00:00.000Z","type":"armed"}"#)
        XCTAssertEqual(event.json.dictionary, ["type": "armed", "time": "2026-12-01T05:00:00.000Z"])
    }

    func test_smartAlarmEventJSON_encodes_triggered_with_reason_and_milliseconds() throws {
        let time = Date(timeIntervalSince1970: 1_796_103_750.25)
        for reason in [SmartAlarmTriggerReason.optimalWakeUp, .userInteraction, .windowEnd] {
            let event = SmartAlarmEvent(type: .triggered(reason: reason), timestamp: time, sessionId: sessionId)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let text = String(decoding: try encoder.encode(event.json), as: UTF8.self)
            XCTAssertEqual(
                text, #"{"reason":"\#(reason.rawValue)","time":"2026-12-01T05:42:30.250Z","type":"triggered"}"#)
        }
    }

    func test_timestamps_formatDatesBefore1970_andAlwaysCarryMilliseconds() throws {
        XCTAssertEqual(SleepAnalysisJSON.timestamp(Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59.500Z")
        XCTAssertEqual(SleepAnalysisJSON.timestamp(Date(timeIntervalSince1970: 60)), "1970-01-01T00:01:00.000Z")
        let event = SmartAlarmEvent(type: .armed, timestamp: Date(timeIntervalSince1970: 60), sessionId: sessionId)
        XCTAssertEqual(event.json.time, "1970-01-01T00:01:00.000Z")
        for seconds in [0.001, 59.9996, 1_796_103_750.125, -86_400.25] {
            let text = SleepAnalysisJSON.timestamp(Date(timeIntervalSince1970: seconds))
            let parsed = try XCTUnwrap(SleepAnalysisJSON.date(text), text)
            XCTAssertEqual(parsed.timeIntervalSince1970, seconds, accuracy: 0.001, text)
        }
    }

    func test_smartAlarmEventJSON_time_parses_back_to_the_instant() throws {
        let time = Date(timeIntervalSince1970: 1_796_103_750.125)
        let json = SmartAlarmEvent(type: .triggered(reason: .windowEnd), timestamp: time, sessionId: sessionId).json
        let parsed = try DateInterval(iso8601Interval: json.time + "/PT0S")
        XCTAssertEqual(parsed.start.timeIntervalSince1970, time.timeIntervalSince1970, accuracy: 1e-6)
    }
}

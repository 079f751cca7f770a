import XCTest

@testable import SleepAnalysis

final class SnoreSessionBuilderTests: XCTestCase {
    private let session = UUID()

    private func event(_ type: EventType, _ start: Double, _ end: Double) -> Event {
        Event(
            type: type,
            interval: DateInterval(
                start: Date(timeIntervalSince1970: start),
                end: Date(timeIntervalSince1970: end)),
            probability: 0.9, source: .audio, sessionId: session)
    }

    func test_snoreSessions_groupEventsWithinGap_andSplitAfterLongPause() {
        // Given snores at 0, 60 and 200 s (gaps under 5 min) and one an hour later, plus a cough.
        let events = [
            event(.snoring, 0, 2), event(.snoring, 60, 63), event(.coughing, 70, 71),
            event(.snoring, 200, 201), event(.snoring, 3_800, 3_802),
        ]
        let sessions = SnoreSessionBuilder().sessions(from: events)
        XCTAssertEqual(sessions.count, 2)
        XCTAssertEqual(sessions[0].eventCount, 3)
        XCTAssertEqual(sessions[0].interval.duration, 201, accuracy: 1e-9)
        XCTAssertEqual(sessions[0].snoreDuration, 6, accuracy: 1e-9)
        XCTAssertEqual(sessions[1].eventCount, 1)
        XCTAssertEqual(SnoreSessionBuilder().snoreTime(from: events), 8, accuracy: 1e-9)
    }

    func test_snoreTime_countsOverlapsOnce() {
        let events = [event(.snoring, 0, 4), event(.snoring, 2, 6)]
        XCTAssertEqual(SnoreSessionBuilder().snoreTime(from: events), 6, accuracy: 1e-9)
        XCTAssertEqual(SnoreSessionBuilder().sessions(from: []).count, 0)
    }

    func test_snoreTime_countsTheBreathBetweenSnores_butNotLongPauses() {
        // One snore of 1.2 s every 4.8 s (12.5 breaths a minute) for a minute, one of them missed, then silence
        // and a lone snore 30 s after the last.
        var events = stride(from: 0.0, to: 60, by: 4.8).enumerated().filter { $0.offset != 5 }
            .map { event(.snoring, $0.element, $0.element + 1.2) }
        let lastEnd = events.last!.interval.end.timeIntervalSince1970
        events.append(event(.snoring, lastEnd + 30, lastEnd + 31))
        let builder = SnoreSessionBuilder()
        XCTAssertEqual(builder.snoreTime(from: events), lastEnd + 1, accuracy: 1e-6)
        XCTAssertEqual(builder.snoringStretches(from: events).count, 2)
        XCTAssertEqual(SnoreSessionBuilder(breathGap: 0).snoreTime(from: events), 12 * 1.2 + 1, accuracy: 1e-6)
        let sessions = builder.sessions(from: events)
        XCTAssertEqual(sessions.count, 1)
        XCTAssertEqual(sessions[0].eventCount, 13)
        XCTAssertEqual(sessions[0].snoreDuration, lastEnd + 1, accuracy: 1e-6)
    }
}

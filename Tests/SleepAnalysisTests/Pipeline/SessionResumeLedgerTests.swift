import Foundation
import XCTest

@testable import SleepAnalysis

/// `SessionResumeLedger`: what a resumed session journaled before its interruption decides where it continues,
/// which outputs found again are not recorded twice, and the audio health before the resume.
final class SessionResumeLedgerTests: XCTestCase {
    private let session = UUID()
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func at(_ seconds: TimeInterval) -> Date { start.addingTimeInterval(seconds) }

    private func snore(_ seconds: TimeInterval) -> Event {
        Event(
            type: .snoring, interval: DateInterval(start: at(seconds), duration: 5), probability: 0.9,
            source: .audio, sessionId: session)
    }

    private func restored(
        until processedUntil: Date?, events: [Event] = [], rates: [BreathingRate] = [],
        health: [AudioHealthUpdate] = [], eventsModel: EventsModelChoice? = nil
    ) -> RestoredSessionState {
        RestoredSessionState(
            timeZone: TimeZone(identifier: "UTC")!, processedUntil: processedUntil, observations: [],
            realTimePredictions: [], events: events, breathingRates: rates, healthUpdates: health, alarmState: nil,
            eventsModel: eventsModel)
    }

    func test_aSessionThatIsNotResumed_startsAtItsStart_andHasNothingJournaled() {
        let ledger = SessionResumeLedger(restoring: nil, sessionStart: start)
        XCTAssertEqual(ledger.resumeFrom, start)
        XCTAssertFalse(ledger.resumesAfterStart)
        XCTAssertNil(ledger.restoredEventsModel)
        XCTAssertEqual(ledger.unjournaled([snore(10), snore(20)]), [snore(10), snore(20)])
        XCTAssertFalse(ledger.isJournaled(BreathingRate(timestamp: at(30), bpm: 14, confidence: 1, sessionId: session)))
    }

    func test_aResumedSession_continuesAtItsCheckpoint_andSkipsWhatWasJournaled() {
        let rate = BreathingRate(timestamp: at(30), bpm: 14, confidence: 1, sessionId: session)
        let ledger = SessionResumeLedger(
            restoring: restored(
                until: at(600), events: [snore(10)], rates: [rate], eventsModel: EventsModelChoice(bandLimited: true)),
            sessionStart: start)
        XCTAssertEqual(ledger.resumeFrom, at(600))
        XCTAssertTrue(ledger.resumesAfterStart)
        XCTAssertEqual(ledger.restoredEventsModel, EventsModelChoice(bandLimited: true))
        XCTAssertEqual(ledger.unjournaled([snore(10), snore(20)]), [snore(20)])
        XCTAssertTrue(ledger.isJournaled(rate))
        XCTAssertFalse(ledger.isJournaled(BreathingRate(timestamp: at(60), bpm: 14, confidence: 1, sessionId: session)))
    }

    func test_aResumeBeforeTheFirstCheckpoint_startsAtTheSessionStart() {
        let ledger = SessionResumeLedger(restoring: restored(until: nil), sessionStart: start)
        XCTAssertEqual(ledger.resumeFrom, start)
        XCTAssertFalse(ledger.resumesAfterStart)
    }

    func test_theHealthBeforeTheResume_isJournaledChangesAsIntervals_joinedToTheEnginesOwnOnesAfterIt() {
        let health = [
            AudioHealthUpdate(status: .flatline, timestamp: at(100), sessionId: session),
            AudioHealthUpdate(status: .healthy, timestamp: at(200), sessionId: session),
            AudioHealthUpdate(status: .missingInput, timestamp: at(700), sessionId: session),
        ]
        let ledger = SessionResumeLedger(restoring: restored(until: at(600), health: health), sessionStart: start)
        let engine = [
            AudioHealthInterval(status: .healthy, interval: DateInterval(start: at(0), end: at(600))),
            AudioHealthInterval(status: .healthy, interval: DateInterval(start: at(600), end: at(900))),
            AudioHealthInterval(status: .flatline, interval: DateInterval(start: at(900), end: at(1000))),
        ]
        XCTAssertEqual(
            ledger.healthIntervals(continuedBy: engine),
            [
                AudioHealthInterval(status: .healthy, interval: DateInterval(start: at(0), end: at(100))),
                AudioHealthInterval(status: .flatline, interval: DateInterval(start: at(100), end: at(200))),
                AudioHealthInterval(status: .healthy, interval: DateInterval(start: at(200), end: at(900))),
                AudioHealthInterval(status: .flatline, interval: DateInterval(start: at(900), end: at(1000))),
            ])
    }
}

import Foundation
import Synchronization
import XCTest

@testable import SleepAnalysis

/// `SessionProcessor` on its own, with no engines (a heart-rate-only session): epochs close on the session's
/// 30-second grid and each is committed to the journal with its checkpoint; an interrupted session commits nothing
/// more; a resumed one skips what was analysed before its checkpoint.
final class SessionProcessorTests: XCTestCase {
    private final class Commits: SessionRecorder {
        private let checkpoints = Mutex<[(records: Int, processedUntil: Date)]>([])
        var all: [(records: Int, processedUntil: Date)] { checkpoints.withLock { $0 } }

        func commit(_ records: [JournaledRecord], sessionId: UUID, processedUntil: Date) {
            checkpoints.withLock { $0.append((records.count, processedUntil)) }
        }
    }

    private final class SilentOutput: AnalysisOutputSink {
        func publish(events: [Event]) {}
        func publish(breathingRate: BreathingRate) {}
        func publish(sleepStage: SleepStagePrediction) {}
        func publish(audioHealth: AudioHealthUpdate) {}
        func publish(smartAlarm: SmartAlarmEvent) {}
    }

    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func processor(recorder: Commits, restoring restored: RestoredSessionState? = nil) -> SessionProcessor {
        SessionProcessor(
            sessionId: UUID(), channel: .primary,
            config: SleepAnalysisConfig(useAudio: false, useAccelerometer: false, useHeartRate: true),
            startTime: start, timeZone: TimeZone(identifier: "UTC")!, engines: SessionEngines(),
            publishing: SessionPublishing(realTimeStages: false, wholeNightStages: false), output: SilentOutput(),
            listeners: ListenerBox(listeners: []), recorder: recorder, restoring: restored)
    }

    private func feedHeartRates(_ processor: SessionProcessor, from first: Int, through last: Int) {
        for second in stride(from: first, through: last, by: 5) {
            processor.process(heartRates: [
                HeartRateSample(timestamp: start.addingTimeInterval(Double(second)), bpm: 60)
            ])
        }
    }

    private func offsets(_ commits: Commits) -> [TimeInterval] {
        commits.all.map { $0.processedUntil.timeIntervalSince(start) }
    }

    func test_eachClosedEpoch_isCommittedWithItsCheckpoint() {
        let commits = Commits()
        let session = processor(recorder: commits)
        feedHeartRates(session, from: 0, through: 95)
        XCTAssertEqual(offsets(commits), [30, 60, 90])
        XCTAssertEqual(commits.all.map(\.records), [1, 1, 1])
        XCTAssertEqual(session.dataTime, start.addingTimeInterval(95))
        let result = session.finish(at: start.addingTimeInterval(120))
        XCTAssertEqual(result.startTime, start)
        XCTAssertEqual(result.endTime, start.addingTimeInterval(120))
        XCTAssertEqual(offsets(commits), [30, 60, 90, 120])
    }

    func test_anInterruptedSession_commitsNothingMore() {
        let commits = Commits()
        let session = processor(recorder: commits)
        feedHeartRates(session, from: 0, through: 45)
        XCTAssertEqual(offsets(commits), [30])
        let result = session.interrupt()
        XCTAssertEqual(result.endTime, start.addingTimeInterval(45))
        XCTAssertEqual(offsets(commits), [30])
    }

    func test_aResumedSession_skipsWhatWasAnalysedBeforeItsCheckpoint() {
        let commits = Commits()
        let restored = RestoredSessionState(
            timeZone: TimeZone(identifier: "UTC")!, processedUntil: start.addingTimeInterval(60), observations: [],
            realTimePredictions: [], events: [], breathingRates: [], healthUpdates: [], alarmState: nil)
        let session = processor(recorder: commits, restoring: restored)
        XCTAssertEqual(session.dataTime, start.addingTimeInterval(60))
        feedHeartRates(session, from: 0, through: 95)
        XCTAssertEqual(offsets(commits), [90])
    }
}

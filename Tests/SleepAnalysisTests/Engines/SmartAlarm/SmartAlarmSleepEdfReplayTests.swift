import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Replays real Sleep-EDF hypnograms (labels only) through the engine with a manual clock.
final class SmartAlarmSleepEdfReplayTests: XCTestCase {
    private let nightStart = Date(timeIntervalSince1970: 1_796_074_800)

    /// The expected trigger, computed from the hypnogram without the engine: the first moment in the window
    /// (its start, or an epoch end) where the latest prediction is a light or awake epoch at most 90 s old;
    /// else the window's end.
    private func expectedTrigger(_ night: HypnogramReplay, window: DateInterval) -> (SmartAlarmTriggerReason, Date) {
        let firstEnd = Int((window.start.timeIntervalSince(night.start) / 30).rounded(.up))
        let epochEnds = (max(firstEnd, 0)...night.stages.count).map { night.start.addingTimeInterval(Double($0) * 30) }
        for time in [window.start] + epochEnds where time >= window.start && time < window.end {
            if let prediction = night.latestPrediction(at: time),
                prediction.stage == .light || prediction.stage == .awake,
                time.timeIntervalSince(prediction.interval.end) <= 90
            {
                return (.optimalWakeUp, time)
            }
        }
        return (.windowEnd, window.end)
    }

    func test_smartAlarm_fires_once_at_first_light_or_wake_epoch_in_sleepEdf_nights() throws {
        guard let data = FixturePaths.sharedData else { throw XCTSkip("needs ../shared/data (Sleep-EDF hypnograms)") }
        let folder = data.appendingPathComponent("staging/sleepedf_hypnograms/epochs")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "csv" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        guard !files.isEmpty else { throw XCTSkip("needs ../shared/data/staging/sleepedf_hypnograms/epochs") }
        var windows = 0
        var optimal = 0
        for file in files.prefix(12) {
            let night = try HypnogramReplay.sleepEdf(file, start: nightStart)
            let asleep = night.stages.indices.filter { [.light, .deep, .rem].contains(night.stages[$0]) }
            guard let onset = asleep.first, let lastSleep = asleep.last else { continue }
            // 30-min windows every 47 min from an hour after onset, 7 s off the epoch grid
            var windowStart = night.epoch(onset).start.addingTimeInterval(3600 + 7)
            while windowStart.addingTimeInterval(1800) <= night.epoch(lastSleep).end {
                let window = DateInterval(start: windowStart, duration: 1800)
                let sessionId = UUID()
                let alarm = SmartAlarmEngine(
                    sessionId: sessionId, configuration: SmartAlarmConfig(wakeupWindow: window),
                    now: windowStart.addingTimeInterval(-300)
                )
                let clock = ManualAnalysisClock(start: windowStart.addingTimeInterval(-300))
                let events =
                    alarm.takePendingEvents()
                    + night.replay(into: alarm, clock: clock, until: window.end.addingTimeInterval(60))
                let (reason, time) = expectedTrigger(night, window: window)
                XCTAssertEqual(
                    events.map(\.type), [.armed, .triggered(reason: reason)], "\(file.lastPathComponent) \(window)"
                )
                XCTAssertEqual(events.last?.timestamp, time, "\(file.lastPathComponent) \(window)")
                windows += 1
                if reason == .optimalWakeUp { optimal += 1 }
                windowStart = windowStart.addingTimeInterval(47 * 60)
            }
        }
        XCTAssertGreaterThan(windows, 50)
        // Light sleep is about half of a night: most 30-min windows hold some.
        XCTAssertGreaterThan(optimal, windows / 2)
        print("Sleep-EDF replay: \(optimal) of \(windows) 30-min windows fired optimalWakeUp, the rest windowEnd")
    }
}

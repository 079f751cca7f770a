import Foundation
import TestSupport
import XCTest

@_spi(Internal) @testable import SleepAnalysis

final class SmartAlarmEngineTests: XCTestCase {
    private let sessionId = UUID(uuidString: "6A1D8D0C-52C1-4E6B-9C33-2B0D8F1E7A10")!
    /// 2026-12-01 05:00:00 UTC: the night's replay starts here.
    private let nightStart = Date(timeIntervalSince1970: 1_796_101_200)

    private func at(minutes: Double) -> Date { nightStart.addingTimeInterval(minutes * 60) }

    /// A window from minute 60 to minute 90 of the night.
    private var window: SmartAlarmConfig {
        SmartAlarmConfig(wakeupWindow: DateInterval(start: at(minutes: 60), end: at(minutes: 90)))
    }

    private func engine(_ config: SmartAlarmConfig?, policy: SmartAlarmPolicy = .standard) -> SmartAlarmEngine {
        SmartAlarmEngine(sessionId: sessionId, configuration: config, now: nightStart, policy: policy)
    }

    // MARK: - Arming

    func test_smartAlarm_emits_armed_when_session_starts_with_window() {
        // Given a session started with a window
        let alarm = engine(window)
        // Then the armed event is pending, once, stamped with the start
        XCTAssertEqual(
            alarm.takePendingEvents(), [SmartAlarmEvent(type: .armed, timestamp: nightStart, sessionId: sessionId)]
        )
        XCTAssertEqual(alarm.takePendingEvents(), [])
        XCTAssertTrue(alarm.isArmed)
    }

    func test_smartAlarm_returns_armed_from_first_call_when_not_taken() {
        let alarm = engine(window)
        let events = alarm.tick(now: at(minutes: 1), stage: nil, movement: false)
        XCTAssertEqual(events.map(\.type), [.armed])
        XCTAssertEqual(alarm.tick(now: at(minutes: 2), stage: nil, movement: false), [])
    }

    func test_smartAlarm_stays_silent_when_session_starts_without_window() {
        let alarm = engine(nil)
        XCTAssertEqual(alarm.takePendingEvents(), [])
        let night = HypnogramReplay(start: nightStart, runs: [(.light, 240)])
        let clock = ManualAnalysisClock(start: nightStart)
        XCTAssertEqual(
            night.replay(into: alarm, clock: clock, until: at(minutes: 120), movements: [at(minutes: 70)]), [])
        XCTAssertFalse(alarm.isArmed)
    }

    // MARK: - Light sleep and movement

    func test_smartAlarm_fires_optimalWakeUp_on_first_light_epoch_inside_window() {
        // Given deep sleep until minute 70, then light sleep
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let night = HypnogramReplay(start: nightStart, runs: [(.deep, 140), (.light, 100)])
        // When the night is replayed second by second
        let events = night.replay(into: alarm, clock: ManualAnalysisClock(start: nightStart), until: at(minutes: 120))
        // Then it fires when the first light epoch (70:00-70:30) has been predicted, at 70:30
        XCTAssertEqual(
            events,
            [
                SmartAlarmEvent(
                    type: .triggered(reason: .optimalWakeUp), timestamp: at(minutes: 70.5), sessionId: sessionId)
            ]
        )
    }

    func test_smartAlarm_does_not_fire_before_window_when_light_sleep_precedes_it() {
        // Given light sleep until minute 50, then deep until minute 80, then REM
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let night = HypnogramReplay(start: nightStart, runs: [(.light, 100), (.deep, 60), (.rem, 80)])
        let clock = ManualAnalysisClock(start: nightStart)
        // When replayed up to the window's start
        XCTAssertEqual(night.replay(into: alarm, clock: clock, until: at(minutes: 60) - 1), [])
        // Then nothing fired before it, and it fires only at the window's end (no light inside)
        let rest = night.replay(into: alarm, clock: clock, until: at(minutes: 120))
        XCTAssertEqual(rest.map(\.type), [.triggered(reason: .windowEnd)])
        XCTAssertEqual(rest.first?.timestamp, at(minutes: 90))
    }

    func test_smartAlarm_fires_at_window_start_when_already_in_light_sleep() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let night = HypnogramReplay(start: nightStart, runs: [(.light, 240)])
        let events = night.replay(into: alarm, clock: ManualAnalysisClock(start: nightStart), until: at(minutes: 120))
        XCTAssertEqual(events.map(\.type), [.triggered(reason: .optimalWakeUp)])
        XCTAssertEqual(events.first?.timestamp, at(minutes: 60))
    }

    func test_smartAlarm_fires_optimalWakeUp_on_movement_inside_window() {
        // Given deep sleep throughout and a movement at 75:10.4
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let night = HypnogramReplay(start: nightStart, runs: [(.deep, 240)])
        let movement = at(minutes: 75).addingTimeInterval(10.4)
        let events = night.replay(
            into: alarm, clock: ManualAnalysisClock(start: nightStart), until: at(minutes: 120), movements: [movement]
        )
        // Then it fires at the first tick after the movement
        XCTAssertEqual(events.map(\.type), [.triggered(reason: .optimalWakeUp)])
        XCTAssertEqual(events.first?.timestamp, at(minutes: 75).addingTimeInterval(11))
    }

    func test_smartAlarm_ignores_movement_before_window() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let night = HypnogramReplay(start: nightStart, runs: [(.deep, 240)])
        let events = night.replay(
            into: alarm, clock: ManualAnalysisClock(start: nightStart), until: at(minutes: 120),
            movements: [at(minutes: 30), at(minutes: 59.9)]
        )
        XCTAssertEqual(events.map(\.type), [.triggered(reason: .windowEnd)])
    }

    func test_smartAlarm_ignores_movement_when_policy_disables_it() {
        var policy = SmartAlarmPolicy.standard
        policy.movementTriggers = false
        let alarm = engine(window, policy: policy)
        _ = alarm.takePendingEvents()
        XCTAssertEqual(alarm.tick(now: at(minutes: 70), stage: nil, movement: true), [])
    }

    func test_smartAlarm_requires_light_probability_at_threshold() {
        var policy = SmartAlarmPolicy.standard
        policy.minimumLightProbability = 0.6
        let alarm = engine(window, policy: policy)
        _ = alarm.takePendingEvents()
        let epoch = DateInterval(start: at(minutes: 69.5), duration: 30)
        let unsure = SleepStagePrediction(
            stage: .light, interval: epoch,
            probabilities: SleepStageProbabilities(awake: 0.1, rem: 0.2, light: 0.5, deep: 0.2)
        )
        let sure = SleepStagePrediction(
            stage: .light, interval: epoch,
            probabilities: SleepStageProbabilities(awake: 0, rem: 0.2, light: 0.6, deep: 0.2)
        )
        XCTAssertEqual(alarm.tick(now: at(minutes: 70), stage: unsure, movement: false), [])
        XCTAssertEqual(
            alarm.tick(now: at(minutes: 70), stage: sure, movement: false).map(\.type),
            [.triggered(reason: .optimalWakeUp)])
    }

    func test_smartAlarm_ignores_stale_light_prediction() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let old = SleepStagePrediction(
            stage: .light, interval: DateInterval(start: at(minutes: 55), duration: 30),
            probabilities: SleepStageProbabilities(awake: 0, rem: 0, light: 1, deep: 0)
        )
        // 55:30 + 90 s = 57:00: at 61:00 the prediction is too old to say anything about now
        XCTAssertEqual(alarm.tick(now: at(minutes: 61), stage: old, movement: false), [])
        XCTAssertTrue(alarm.isArmed)
    }

    func test_smartAlarm_fires_when_awake_inside_window() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let night = HypnogramReplay(start: nightStart, runs: [(.rem, 150), (.awake, 90)])
        let events = night.replay(into: alarm, clock: ManualAnalysisClock(start: nightStart), until: at(minutes: 120))
        XCTAssertEqual(events.map(\.type), [.triggered(reason: .optimalWakeUp)])
        XCTAssertEqual(events.first?.timestamp, at(minutes: 75.5))
    }

    // MARK: - User interaction

    func test_smartAlarm_fires_userInteraction_inside_window() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let touch = at(minutes: 65).addingTimeInterval(0.25)
        XCTAssertEqual(
            alarm.notifyUserInteraction(at: touch),
            [SmartAlarmEvent(type: .triggered(reason: .userInteraction), timestamp: touch, sessionId: sessionId)]
        )
        // And nothing fires afterwards
        XCTAssertEqual(alarm.tick(now: at(minutes: 66), stage: nil, movement: true), [])
        XCTAssertEqual(alarm.tick(now: at(minutes: 91), stage: nil, movement: false), [])
    }

    func test_smartAlarm_ignores_userInteraction_outside_window() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        XCTAssertEqual(alarm.notifyUserInteraction(at: at(minutes: 59)), [])
        XCTAssertEqual(alarm.notifyUserInteraction(at: at(minutes: 90)), [])
        XCTAssertTrue(alarm.isArmed)
        XCTAssertEqual(
            alarm.tick(now: at(minutes: 90), stage: nil, movement: false).map(\.type), [.triggered(reason: .windowEnd)])
    }

    // MARK: - Window end

    func test_smartAlarm_fires_windowEnd_when_no_light_sleep() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let night = HypnogramReplay(start: nightStart, runs: [(.deep, 130), (.rem, 110)])
        let events = night.replay(into: alarm, clock: ManualAnalysisClock(start: nightStart), until: at(minutes: 120))
        XCTAssertEqual(
            events,
            [SmartAlarmEvent(type: .triggered(reason: .windowEnd), timestamp: at(minutes: 90), sessionId: sessionId)]
        )
    }

    func test_smartAlarm_fires_windowEnd_at_first_tick_after_end_when_ticks_are_sparse() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        XCTAssertEqual(alarm.tick(now: at(minutes: 89.99), stage: nil, movement: false), [])
        let late = at(minutes: 90).addingTimeInterval(0.6)
        XCTAssertEqual(alarm.tick(now: late, stage: nil, movement: false).map(\.timestamp), [late])
    }

    func test_smartAlarm_fires_windowEnd_on_next_tick_when_window_already_past() {
        // Given a session at minute 100 whose alarm is set to a window that ended at minute 90
        let alarm = engine(nil)
        let armed = alarm.update(configuration: window, now: at(minutes: 100))
        XCTAssertEqual(armed.map(\.type), [.armed])
        // When the next tick comes, even in light sleep
        let light = SleepStagePrediction(
            stage: .light, interval: DateInterval(start: at(minutes: 99.5), duration: 30),
            probabilities: SleepStageProbabilities(awake: 0, rem: 0, light: 1, deep: 0)
        )
        let events = alarm.tick(now: at(minutes: 100).addingTimeInterval(1), stage: light, movement: true)
        // Then it fires windowEnd
        XCTAssertEqual(events.map(\.type), [.triggered(reason: .windowEnd)])
    }

    // MARK: - Exactly one trigger

    func test_smartAlarm_fires_exactly_once_per_arming() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let night = HypnogramReplay(start: nightStart, runs: [(.light, 240)])
        let events = night.replay(
            into: alarm, clock: ManualAnalysisClock(start: nightStart), until: at(minutes: 120),
            movements: stride(from: 61.0, to: 95, by: 2).map { at(minutes: $0) }
        )
        XCTAssertEqual(triggers(events).count, 1)
        XCTAssertEqual(alarm.notifyUserInteraction(at: at(minutes: 70)), [])
    }

    // MARK: - Updates

    func test_smartAlarm_update_replaces_window() {
        // Given an alarm moved from 60-90 to 100-110 before it fired
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let later = SmartAlarmConfig(wakeupWindow: DateInterval(start: at(minutes: 100), end: at(minutes: 110)))
        XCTAssertEqual(alarm.update(configuration: later, now: at(minutes: 30)).map(\.type), [.armed])
        XCTAssertEqual(alarm.configuration, later)
        // When deep sleep runs through the old window
        let night = HypnogramReplay(start: nightStart, runs: [(.deep, 240)])
        let clock = ManualAnalysisClock(start: at(minutes: 30))
        let events = night.replay(into: alarm, clock: clock, until: at(minutes: 115))
        // Then only the new window's end fires
        XCTAssertEqual(events.map(\.type), [.triggered(reason: .windowEnd)])
        XCTAssertEqual(events.first?.timestamp, at(minutes: 110))
    }

    func test_smartAlarm_update_nil_cancels() {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        XCTAssertEqual(alarm.update(configuration: nil, now: at(minutes: 30)), [])
        XCTAssertNil(alarm.configuration)
        let night = HypnogramReplay(start: nightStart, runs: [(.light, 240)])
        let clock = ManualAnalysisClock(start: at(minutes: 30))
        XCTAssertEqual(night.replay(into: alarm, clock: clock, until: at(minutes: 115)), [])
        XCTAssertEqual(alarm.notifyUserInteraction(at: at(minutes: 70)), [])
    }

    func test_smartAlarm_update_adds_alarm_to_session_without_one() {
        let alarm = engine(nil)
        XCTAssertEqual(alarm.update(configuration: window, now: at(minutes: 10)).map(\.type), [.armed])
        XCTAssertEqual(
            alarm.notifyUserInteraction(at: at(minutes: 61)).map(\.type), [.triggered(reason: .userInteraction)])
    }

    func test_smartAlarm_update_rearms_fired_alarm() {
        // Given an alarm that fired at the window's end
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        XCTAssertEqual(triggers(alarm.tick(now: at(minutes: 90), stage: nil, movement: false)).count, 1)
        // When the same window is set again (snooze-like) and a later window after that
        let again = alarm.update(configuration: window, now: at(minutes: 91))
        XCTAssertEqual(again, [SmartAlarmEvent(type: .armed, timestamp: at(minutes: 91), sessionId: sessionId)])
        // Then it fires again, once, on the next tick (the window is past)
        XCTAssertEqual(
            alarm.tick(now: at(minutes: 91) + 1, stage: nil, movement: false).map(\.type),
            [.triggered(reason: .windowEnd)])
        XCTAssertEqual(alarm.tick(now: at(minutes: 91) + 2, stage: nil, movement: false), [])
    }

    // MARK: - Persistence

    func test_smartAlarm_state_round_trips_through_Codable_and_pending_alarm_stays_pending() throws {
        // Given an armed alarm journaled at minute 40
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        let data = try JSONEncoder().encode(alarm.state)
        let restoredState = try JSONDecoder().decode(SmartAlarmState.self, from: data)
        XCTAssertEqual(restoredState, alarm.state)
        // When the session resumes from the journal
        let resumed = SmartAlarmEngine(restoring: restoredState)
        XCTAssertEqual(resumed.takePendingEvents(), [])
        XCTAssertTrue(resumed.isArmed)
        XCTAssertEqual(resumed.configuration, window)
        // Then it still fires in its window
        XCTAssertEqual(
            resumed.notifyUserInteraction(at: at(minutes: 62)).map(\.type), [.triggered(reason: .userInteraction)])
    }

    func test_smartAlarm_state_round_trips_through_Codable_and_fired_alarm_stays_fired() throws {
        let alarm = engine(window)
        _ = alarm.takePendingEvents()
        _ = alarm.notifyUserInteraction(at: at(minutes: 61))
        let data = try JSONEncoder().encode(alarm.state)
        let resumed = SmartAlarmEngine(restoring: try JSONDecoder().decode(SmartAlarmState.self, from: data))
        XCTAssertEqual(resumed.state.phase, .fired)
        XCTAssertEqual(resumed.state.firedReason, .userInteraction)
        XCTAssertEqual(resumed.state.firedAt, at(minutes: 61))
        XCTAssertEqual(resumed.tick(now: at(minutes: 95), stage: nil, movement: true), [])
        XCTAssertEqual(resumed.update(configuration: window, now: at(minutes: 96)).map(\.type), [.armed])
    }

    func test_smartAlarm_state_round_trips_through_Codable_and_cancelled_alarm_stays_silent() throws {
        let alarm = engine(window)
        _ = alarm.update(configuration: nil, now: at(minutes: 5))
        let data = try JSONEncoder().encode(alarm.state)
        let resumed = SmartAlarmEngine(restoring: try JSONDecoder().decode(SmartAlarmState.self, from: data))
        XCTAssertEqual(resumed.tick(now: at(minutes: 95), stage: nil, movement: false), [])
    }

    func test_smartAlarm_restored_from_configuration_only_is_pending() {
        // A journal that kept only the configuration resumes an armed alarm (and a disarmed one without it)
        let pending = SmartAlarmEngine(restoring: .pending(sessionId: sessionId, configuration: window))
        XCTAssertTrue(pending.isArmed)
        XCTAssertEqual(
            pending.tick(now: at(minutes: 90), stage: nil, movement: false).map(\.type),
            [.triggered(reason: .windowEnd)]
        )
        let none = SmartAlarmEngine(restoring: .pending(sessionId: sessionId, configuration: nil))
        XCTAssertEqual(none.tick(now: at(minutes: 90), stage: nil, movement: false), [])
    }

    func test_smartAlarm_state_json_keys_are_stable() throws {
        let alarm = engine(window)
        _ = alarm.notifyUserInteraction(at: at(minutes: 61))
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(alarm.state)) as? [String: Any]
        XCTAssertEqual(
            Set(object?.keys.map { $0 } ?? []),
            ["sessionId", "configuration", "phase", "armedAt", "firedAt", "firedReason"]
        )
        XCTAssertEqual(object?["phase"] as? String, "fired")
        XCTAssertEqual(object?["firedReason"] as? String, "userInteraction")
    }

    // MARK: - Clocks

    func test_manualClock_moves_only_when_told() {
        let clock = ManualAnalysisClock(start: nightStart)
        XCTAssertEqual(clock.now, nightStart)
        clock.advance(by: 2.5)
        XCTAssertEqual(clock.now, nightStart + 2.5)
        clock.set(to: at(minutes: 3))
        XCTAssertEqual(clock.now, at(minutes: 3))
        let system: any AnalysisClock = SystemAnalysisClock()
        XCTAssertLessThan(abs(system.now.timeIntervalSinceNow), 5)
    }
}

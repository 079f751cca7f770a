import Foundation

/// The smart alarm of one primary-channel session: arms with a wake-up window and fires exactly once
/// per arming, at the first wakeable moment inside the window or at its end at the latest.
///
/// The engine never reads a clock: every call passes the data time (`now`), so a replayed night gives
/// exactly the events it would give live. The SDK actor owns one engine per primary session and
///  - creates it when the session starts and publishes `takePendingEvents()` (the `.armed` event),
///  - calls `tick(now:stage:movement:)` from its analysis loop at least once per second of data time,
///  - forwards `updateSmartAlarm(config:)` to `update(configuration:now:)` and
///    `notifyUserInteraction(at:)` to the method of the same name,
///  - journals `state` after any call that returned events (and on update) and rebuilds the engine with
///    `init(restoring:)` when a session is resumed.
///
/// Firing rules (`SmartAlarmPolicy.standard`): inside the window `[start, end)` a movement event since
/// the last tick or a fresh `.light`/`.awake` real-time prediction fires `.optimalWakeUp`; a user
/// interaction fires `.userInteraction`; the first tick at or after `end` fires `.windowEnd` (so a window
/// already past when it is set fires on the next tick). Nothing fires before `start`.
///
/// Not `Sendable`: it belongs to the actor that drives it.
final class SmartAlarmEngine {
    /// The persisted snapshot; save it with the session journal.
    private(set) var state: SmartAlarmState
    /// When the alarm counts as wakeable.
    let policy: SmartAlarmPolicy
    /// Events produced outside a call that returns events (the `.armed` of `init`).
    private var pendingEvents: [SmartAlarmEvent] = []

    /// Creates the engine for a session that starts now, arming it when a configuration is given.
    ///
    /// The `.armed` event is not lost: it is returned by `takePendingEvents()` and, if that is not
    /// called first, at the head of the next call's result.
    ///
    /// - Parameters:
    ///   - sessionId: The session the alarm belongs to.
    ///   - configuration: The wake-up window, or nil for no alarm (yet).
    ///   - now: The session's start (data time).
    ///   - policy: When the sleeper counts as wakeable.
    init(sessionId: UUID, configuration: SmartAlarmConfig?, now: Date, policy: SmartAlarmPolicy = .standard) {
        self.state = .disarmed(sessionId: sessionId)
        self.policy = policy
        if let configuration {
            pendingEvents.append(arm(configuration, now: now))
        }
    }

    /// Rebuilds the engine of a resumed session from its journaled snapshot, emitting nothing.
    ///
    /// - Parameters:
    ///   - state: The snapshot saved before the interruption.
    ///   - policy: When the sleeper counts as wakeable.
    init(restoring state: SmartAlarmState, policy: SmartAlarmPolicy = .standard) {
        self.state = state
        self.policy = policy
    }

    /// The current configuration, nil when there is no alarm.
    var configuration: SmartAlarmConfig? { state.configuration }

    /// Whether the alarm is set and has not fired yet.
    var isArmed: Bool { state.phase == .armed }

    /// Returns and forgets the events produced since the last call that returned events (the `.armed` of
    /// `init`).
    ///
    /// - Returns: The pending events, oldest first.
    func takePendingEvents() -> [SmartAlarmEvent] {
        defer { pendingEvents.removeAll() }
        return pendingEvents
    }

    /// Replaces, adds or cancels the alarm; a new configuration re-arms an alarm that already fired.
    ///
    /// A window already past is armed too and fires `.windowEnd` on the next tick.
    ///
    /// - Parameters:
    ///   - configuration: The new wake-up window, or nil to cancel the alarm.
    ///   - now: The time of the change (data time).
    /// - Returns: `.armed` for a new configuration, nothing for a cancellation.
    func update(configuration: SmartAlarmConfig?, now: Date) -> [SmartAlarmEvent] {
        var events = takePendingEvents()
        if let configuration {
            events.append(arm(configuration, now: now))
        } else {
            state = .disarmed(sessionId: state.sessionId)
        }
        return events
    }

    /// Tells the engine the sleeper touched the device; inside the window this fires `.userInteraction`.
    ///
    /// - Parameter time: When the interaction happened (data time).
    /// - Returns: The trigger, or nothing outside the window or when not armed.
    func notifyUserInteraction(at time: Date) -> [SmartAlarmEvent] {
        var events = takePendingEvents()
        if let window = armedWindow, window.start <= time, time < window.end {
            events.append(fire(.userInteraction, at: time))
        }
        return events
    }

    /// Advances the alarm to `now` with what the analysis knows about the sleeper.
    ///
    /// - Parameters:
    ///   - now: The data time of this tick (ticks come at least once per second of data).
    ///   - stage: The latest real-time stage prediction, if any.
    ///   - movement: Whether a movement event happened since the previous tick.
    /// - Returns: The trigger when the alarm fires at this tick, else nothing (plus any pending events).
    func tick(now: Date, stage: SleepStagePrediction?, movement: Bool) -> [SmartAlarmEvent] {
        var events = takePendingEvents()
        guard let window = armedWindow else { return events }
        if now >= window.end {
            events.append(fire(.windowEnd, at: now))
        } else if now >= window.start,
            (movement && policy.movementTriggers) || policy.isWakeable(stage, at: now)
        {
            events.append(fire(.optimalWakeUp, at: now))
        }
        return events
    }

    // MARK: - Transitions

    /// The window of an armed alarm; nil when disarmed or already fired.
    private var armedWindow: DateInterval? {
        state.phase == .armed ? state.configuration?.wakeupWindow : nil
    }

    /// Arms a configuration, forgetting any earlier firing.
    private func arm(_ configuration: SmartAlarmConfig, now: Date) -> SmartAlarmEvent {
        state = SmartAlarmState(
            sessionId: state.sessionId, configuration: configuration, phase: .armed, armedAt: now
        )
        return SmartAlarmEvent(type: .armed, timestamp: now, sessionId: state.sessionId)
    }

    /// Fires the armed alarm once.
    private func fire(_ reason: SmartAlarmTriggerReason, at time: Date) -> SmartAlarmEvent {
        state.phase = .fired
        state.firedAt = time
        state.firedReason = reason
        return SmartAlarmEvent(type: .triggered(reason: reason), timestamp: time, sessionId: state.sessionId)
    }
}

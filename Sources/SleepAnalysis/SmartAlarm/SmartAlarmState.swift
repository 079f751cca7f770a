import Foundation

/// A snapshot of one session's smart alarm, persisted with the session journal.
///
/// Restoring it (`SmartAlarmEngine(restoring:)`) continues exactly where the alarm was: an alarm that
/// fired stays fired, an armed one stays armed and can still fire, a cancelled one stays silent.
struct SmartAlarmState: Sendable, Hashable, Codable {
    /// Where the alarm is in its life cycle.
    enum Phase: String, Sendable, Hashable, Codable {
        /// No alarm is configured (never set, or cancelled).
        case disarmed
        /// Set and waiting: it fires once, inside its window or at its end.
        case armed
        /// It fired for the current configuration; only a new configuration re-arms it.
        case fired
    }

    /// The session the alarm belongs to.
    var sessionId: UUID
    /// The current configuration (nil when disarmed).
    var configuration: SmartAlarmConfig?
    /// The life-cycle phase.
    var phase: Phase
    /// When the current configuration was armed.
    var armedAt: Date?
    /// When it fired, once it has.
    var firedAt: Date?
    /// Why it fired, once it has.
    var firedReason: SmartAlarmTriggerReason?

    /// A disarmed alarm for a session.
    ///
    /// - Parameter sessionId: The session.
    /// - Returns: A state with no configuration.
    static func disarmed(sessionId: UUID) -> SmartAlarmState {
        SmartAlarmState(sessionId: sessionId, configuration: nil, phase: .disarmed)
    }
}

import Foundation

/// A snapshot of one session's smart alarm, persisted with the session journal.
///
/// Restoring it (`SmartAlarmEngine(restoring:)`) continues exactly where the alarm was: an alarm that
/// fired stays fired, an armed one stays armed and can still fire, a cancelled one stays silent.
/// SPI so that the journal's public record (`JournalSession`) can hold it; its JSON keys are stable.
@_spi(Internal)
public struct SmartAlarmState: Sendable, Hashable, Codable {
    /// Where the alarm is in its life cycle.
    public enum Phase: String, Sendable, Hashable, Codable {
        /// No alarm is configured (never set, or cancelled).
        case disarmed
        /// Set and waiting: it fires once, inside its window or at its end.
        case armed
        /// It fired for the current configuration; only a new configuration re-arms it.
        case fired
    }

    /// The session the alarm belongs to.
    public var sessionId: UUID
    /// The current configuration (nil when disarmed).
    public var configuration: SmartAlarmConfig?
    /// The life-cycle phase.
    public var phase: Phase
    /// When the current configuration was armed.
    public var armedAt: Date?
    /// When it fired, once it has.
    public var firedAt: Date?
    /// Why it fired, once it has.
    public var firedReason: SmartAlarmTriggerReason?

    /// Creates a snapshot.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - configuration: The wake-up window, nil when disarmed.
    ///   - phase: The life-cycle phase.
    ///   - armedAt: When the configuration was armed.
    ///   - firedAt: When it fired.
    ///   - firedReason: Why it fired.
    public init(
        sessionId: UUID, configuration: SmartAlarmConfig?, phase: Phase, armedAt: Date? = nil, firedAt: Date? = nil,
        firedReason: SmartAlarmTriggerReason? = nil
    ) {
        self.sessionId = sessionId
        self.configuration = configuration
        self.phase = phase
        self.armedAt = armedAt
        self.firedAt = firedAt
        self.firedReason = firedReason
    }

    /// A disarmed alarm for a session.
    ///
    /// - Parameter sessionId: The session.
    /// - Returns: A state with no configuration.
    public static func disarmed(sessionId: UUID) -> SmartAlarmState {
        SmartAlarmState(sessionId: sessionId, configuration: nil, phase: .disarmed)
    }

    /// The state of a journal that kept only the configuration (no snapshot): armed when there is one.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - configuration: The journaled configuration.
    /// - Returns: Armed with the configuration, or disarmed without one.
    public static func pending(sessionId: UUID, configuration: SmartAlarmConfig?) -> SmartAlarmState {
        guard let configuration else { return .disarmed(sessionId: sessionId) }
        return SmartAlarmState(sessionId: sessionId, configuration: configuration, phase: .armed)
    }
}

import Foundation

/// A smart alarm: wake the sleeper in light sleep inside a window, at its end at the latest.
public struct SmartAlarmConfig: Sendable, Hashable, Codable {
    /// When the sleeper may be woken.
    public var wakeupWindow: DateInterval

    /// Creates a configuration.
    ///
    /// - Parameter wakeupWindow: When the sleeper may be woken.
    public init(wakeupWindow: DateInterval) {
        self.wakeupWindow = wakeupWindow
    }
}

/// Why the alarm fired.
public enum SmartAlarmTriggerReason: String, Sendable, Hashable, Codable {
    /// Light sleep or movement inside the window.
    case optimalWakeUp
    /// The sleeper touched the device inside the window.
    case userInteraction
    /// The window ended.
    case windowEnd
}

/// What happened to the alarm.
public enum SmartAlarmEventType: Sendable, Hashable {
    /// The alarm is set and waiting for its window.
    case armed
    /// The alarm fired.
    case triggered(reason: SmartAlarmTriggerReason)
}

/// An alarm life-cycle event, published on `SleepCycleSdk.smartAlarmStream`.
public struct SmartAlarmEvent: Sendable, Hashable {
    /// What happened.
    public var type: SmartAlarmEventType
    /// When it happened.
    public var timestamp: Date
    /// The session concerned.
    public var sessionId: UUID

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - type: What happened.
    ///   - timestamp: When it happened.
    ///   - sessionId: The session concerned.
    public init(type: SmartAlarmEventType, timestamp: Date, sessionId: UUID) {
        self.type = type
        self.timestamp = timestamp
        self.sessionId = sessionId
    }
}

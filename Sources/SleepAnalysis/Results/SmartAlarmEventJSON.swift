import Foundation

/// The JSON form of a smart-alarm event, as `sleepanalysis analyze --wakeup-window` prints it.
///
/// Shape: `{"type": "armed" | "triggered", "reason": "optimalWakeUp" | "userInteraction" | "windowEnd",
/// "time": "2026-12-01T06:42:30.000Z"}`; `reason` is present only for `triggered`; `time` is ISO 8601 in
/// UTC with milliseconds, as every instant of ``SleepAnalysisJSON``.
public struct SmartAlarmEventJSON: Sendable, Hashable, Codable {
    /// `armed` or `triggered`.
    public var type: String
    /// Why it fired (`optimalWakeUp`, `userInteraction`, `windowEnd`); nil for `armed`.
    public var reason: String?
    /// When it happened, ISO 8601 in UTC.
    public var time: String

    /// Creates the JSON form of an event.
    ///
    /// - Parameter event: The event to describe.
    public init(_ event: SmartAlarmEvent) {
        switch event.type {
        case .armed:
            type = "armed"
            reason = nil
        case .triggered(let why):
            type = "triggered"
            reason = why.rawValue
        }
        time = SleepAnalysisJSON.timestamp(event.timestamp)
    }

    /// The same fields as a dictionary, for `JSONSerialization`.
    public var dictionary: [String: String] {
        var fields = ["type": type, "time": time]
        if let reason { fields["reason"] = reason }
        return fields
    }
}

extension SmartAlarmEvent {
    /// The event's JSON form (`{"type", "reason", "time"}`).
    public var json: SmartAlarmEventJSON { SmartAlarmEventJSON(self) }
}

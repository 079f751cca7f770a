import Foundation

/// The JSON form of a smart-alarm event, as `sleepanalysis analyze --wakeup-window` prints it.
///
/// Shape: `{"type": "armed" | "triggered", "reason": "optimalWakeUp" | "userInteraction" | "windowEnd",
/// "time": "2026-12-01T06:42:30Z"}`; `reason` is present only for `triggered`; `time` is ISO 8601 in
/// UTC, with milliseconds only when the time has a fraction of a second.
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
        time = ISO8601Timestamp.string(from: event.timestamp)
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

/// Writes instants as ISO 8601 strings in UTC.
enum ISO8601Timestamp {
    /// Formats an instant as `yyyy-MM-ddTHH:mm:ssZ`, or with `.SSS` milliseconds when it has a fraction.
    ///
    /// - Parameter date: The instant.
    /// - Returns: The ISO 8601 text in UTC.
    static func string(from date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let wholeSeconds = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - wholeSeconds * 1000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: wholeSeconds)
        )
        func pad(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
        text += "T\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))"
        if fraction != 0 { text += "." + pad(fraction, 3) }
        return text + "Z"
    }
}

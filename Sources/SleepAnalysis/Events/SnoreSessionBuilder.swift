import Foundation

/// Groups snoring events into snore sessions for the night's statistics.
///
/// Rule: snoring events (sorted by start) belong to one session while each starts no more than `maximumGap`
/// seconds (default 300 s, five minutes) after the end of the session so far. A session's interval runs from
/// its first event's start to its last event's end; its snore duration is the sum of its events' durations.
/// `snoreTime` is the sum of all snoring events' durations (overlaps counted once).
public struct SnoreSessionBuilder: Sendable {
    /// The longest pause (seconds) between two snoring events of one session.
    public var maximumGap: Double

    /// Creates a builder.
    ///
    /// - Parameter maximumGap: The longest pause between two snoring events of one session, in seconds.
    public init(maximumGap: Double = 300) {
        self.maximumGap = maximumGap
    }

    /// Groups the snoring events among `events` into sessions.
    ///
    /// - Parameter events: Any events; only `.snoring` ones are used.
    /// - Returns: The sessions, in time order.
    public func sessions(from events: [Event]) -> [SnoreSession] {
        let snores = events.filter { $0.type == .snoring }.sorted { $0.interval.start < $1.interval.start }
        var sessions: [SnoreSession] = []
        for event in snores {
            if var last = sessions.last, event.interval.start.timeIntervalSince(last.interval.end) <= maximumGap {
                let end = max(last.interval.end, event.interval.end)
                last.interval = DateInterval(start: last.interval.start, end: end)
                last.eventCount += 1
                last.snoreDuration += event.interval.duration
                sessions[sessions.count - 1] = last
            } else {
                sessions.append(SnoreSession(interval: event.interval, eventCount: 1,
                                             snoreDuration: event.interval.duration))
            }
        }
        return sessions
    }

    /// Total seconds of snoring, overlapping events counted once.
    ///
    /// - Parameter events: Any events; only `.snoring` ones are used.
    /// - Returns: Seconds.
    public func snoreTime(from events: [Event]) -> Double {
        let snores = events.filter { $0.type == .snoring }.map(\.interval).sorted { $0.start < $1.start }
        var total = 0.0
        var current: DateInterval?
        for interval in snores {
            if let open = current, interval.start <= open.end {
                current = DateInterval(start: open.start, end: max(open.end, interval.end))
            } else {
                total += current?.duration ?? 0
                current = interval
            }
        }
        return total + (current?.duration ?? 0)
    }
}

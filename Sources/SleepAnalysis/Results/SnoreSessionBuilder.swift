import Foundation

/// Groups snoring events into snore sessions and measures the night's snoring time.
///
/// Two gaps, two scales:
/// - **Stretches** (`breathGap`, default 10 s): a snorer snores on every breath or every other one, and the
///   detector hears each snore as an event of a second or two with quiet breath between. Snoring events less
///   than `breathGap` apart are one stretch of snoring, and the breath between them counts as snoring time, as a
///   listener would count it. Snoring time is the stretches' total length; an isolated snore counts its own
///   length; overlapping events count once.
/// - **Sessions** (`maximumGap`, default 300 s, five minutes): snoring events (sorted by start) belong to one
///   session while each starts no more than `maximumGap` after the end of the session so far. A session's
///   interval runs from its first event's start to its last event's end; its snore duration is the length of
///   its stretches.
package struct SnoreSessionBuilder: Sendable {
    /// The longest pause (seconds) between two snoring events of one session.
    package var maximumGap: Double
    /// Pauses shorter than this (seconds) between two snoring events are breath inside one stretch of snoring.
    package var breathGap: Double

    /// Creates a builder.
    ///
    /// - Parameters:
    ///   - maximumGap: The longest pause between two snoring events of one session, in seconds.
    ///   - breathGap: Pauses shorter than this between two snoring events, in seconds, count as snoring time
    ///     (default 10 s: one missed snore at twelve breaths a minute; 0 counts the events' own time only).
    package init(maximumGap: Double = 300, breathGap: Double = 10) {
        self.maximumGap = maximumGap
        self.breathGap = max(0, breathGap)
    }

    /// Groups the snoring events among `events` into sessions.
    ///
    /// - Parameter events: Any events; only `.snoring` ones are used.
    /// - Returns: The sessions, in time order.
    package func sessions(from events: [Event]) -> [SnoreSession] {
        var groups: [[DateInterval]] = []
        var sessionEnd = Date.distantPast
        for interval in snoringIntervals(events) {
            if !groups.isEmpty, interval.start.timeIntervalSince(sessionEnd) <= maximumGap {
                groups[groups.count - 1].append(interval)
                sessionEnd = max(sessionEnd, interval.end)
            } else {
                groups.append([interval])
                sessionEnd = interval.end
            }
        }
        return groups.map { group in
            let end = group.map(\.end).max() ?? group[0].end
            return SnoreSession(
                interval: DateInterval(start: group[0].start, end: end), eventCount: group.count,
                snoreDuration: stretches(of: group).reduce(0) { $0 + $1.duration })
        }
    }

    /// Seconds of snoring: the total length of the stretches of snoring (see the type's description).
    ///
    /// - Parameter events: Any events; only `.snoring` ones are used.
    /// - Returns: Seconds.
    package func snoreTime(from events: [Event]) -> Double {
        stretches(of: snoringIntervals(events)).reduce(0) { $0 + $1.duration }
    }

    /// The stretches of snoring: the snoring events' intervals joined across pauses shorter than `breathGap`.
    ///
    /// - Parameter events: Any events; only `.snoring` ones are used.
    /// - Returns: Disjoint intervals, in time order.
    package func snoringStretches(from events: [Event]) -> [DateInterval] {
        stretches(of: snoringIntervals(events))
    }

    private func snoringIntervals(_ events: [Event]) -> [DateInterval] {
        events.filter { $0.type == .snoring }.map(\.interval).sorted { $0.start < $1.start }
    }

    /// `intervals`, sorted by start, joined where they overlap or lie less than `breathGap` apart.
    private func stretches(of intervals: [DateInterval]) -> [DateInterval] {
        var joined: [DateInterval] = []
        for interval in intervals {
            if let last = joined.last,
                interval.start <= last.end || interval.start.timeIntervalSince(last.end) < breathGap
            {
                joined[joined.count - 1] = DateInterval(start: last.start, end: max(last.end, interval.end))
            } else {
                joined.append(interval)
            }
        }
        return joined
    }
}

import Foundation

/// What a resumed session had journaled before its interruption, and what follows from it: where analysis
/// continues, which outputs the engines find again while they catch up (not to be recorded twice), the events
/// detector's journaled choice of model, and the audio health before the resume. A session that is not resumed has
/// an empty ledger that starts at the session's start.
struct SessionResumeLedger {
    /// The session's start.
    let sessionStart: Date
    /// Data before this time was analysed before the resume (or precedes the session) and is skipped.
    let resumeFrom: Date
    /// The events detector's choice of model journaled before the resume, if it had made one.
    let restoredEventsModel: EventsModelChoice?
    /// Health changes journaled before the resume.
    private let priorHealthUpdates: [AudioHealthUpdate]
    private let journaledEvents: Set<Event>
    private let journaledRates: Set<BreathingRate>

    /// The ledger of a session starting at `sessionStart`.
    ///
    /// - Parameters:
    ///   - restored: What was journaled before an interruption; nil for a session that is not resumed.
    ///   - sessionStart: The session's start.
    init(restoring restored: RestoredSessionState?, sessionStart: Date) {
        self.sessionStart = sessionStart
        resumeFrom = restored?.processedUntil ?? sessionStart
        restoredEventsModel = restored?.eventsModel
        priorHealthUpdates = restored?.healthUpdates ?? []
        journaledEvents = Set(restored?.events ?? [])
        journaledRates = Set(restored?.breathingRates ?? [])
    }

    /// Whether analysis continues after the session's start (a resume with at least one epoch journaled).
    var resumesAfterStart: Bool { resumeFrom > sessionStart }

    /// The events of `found` that were not journaled before the resume, in their order.
    ///
    /// - Parameter found: Events an engine found.
    /// - Returns: The new ones.
    func unjournaled(_ found: [Event]) -> [Event] {
        journaledEvents.isEmpty ? found : found.filter { !journaledEvents.contains($0) }
    }

    /// Whether `rate` was journaled before the resume.
    ///
    /// - Parameter rate: A breathing rate an engine measured.
    /// - Returns: True when it is already in the journal.
    func isJournaled(_ rate: BreathingRate) -> Bool {
        journaledRates.contains(rate)
    }

    /// The session's audio health when the engine saw only the part after the resume: the journaled changes
    /// before `resumeFrom` as intervals, then the engine's intervals after it, neighbours of one status joined.
    ///
    /// - Parameter timeline: The engine's health intervals.
    /// - Returns: The session's intervals from its start.
    func healthIntervals(continuedBy timeline: [AudioHealthInterval]) -> [AudioHealthInterval] {
        let current = timeline.filter { $0.interval.end > resumeFrom }
        var prior: [AudioHealthInterval] = []
        var status = AudioHealthStatus.healthy
        var since = sessionStart
        for update in priorHealthUpdates where update.timestamp < resumeFrom {
            if update.timestamp > since {
                prior.append(
                    AudioHealthInterval(status: status, interval: DateInterval(start: since, end: update.timestamp)))
            }
            status = update.status
            since = max(since, update.timestamp)
        }
        if resumeFrom > since {
            prior.append(AudioHealthInterval(status: status, interval: DateInterval(start: since, end: resumeFrom)))
        }
        var joined: [AudioHealthInterval] = []
        for interval in prior + current {
            if let last = joined.last, last.status == interval.status,
                abs(last.interval.end.timeIntervalSince(interval.interval.start)) < 1e-6
            {
                joined[joined.count - 1] = AudioHealthInterval(
                    status: last.status, interval: DateInterval(start: last.interval.start, end: interval.interval.end))
            } else {
                joined.append(interval)
            }
        }
        return joined
    }
}

import Foundation

/// The events engine of one channel's session on a stereo source: hands on what the arbiter assigned to that
/// channel, as the session's own events (its session id, its enabled types, nothing that ended before it began),
/// and the event starts it announced to that channel. Its choice of model for band-limited audio is that of the
/// engine listening to its channel, so each sleeper's session journals (and on resume adopts) its own channel's.
final class ArbitratedEventsEngine: AudioEventsEngine {
    private let arbiter: StereoEventArbiter
    private let channel: AnalysisChannel
    private let sessionId: UUID
    private let enabledTypes: Set<EventType>
    private let startTime: Date

    /// Creates the engine of the session `sessionId` on `channel` and attaches it to the arbiter.
    ///
    /// - Parameters:
    ///   - arbiter: The source's arbiter.
    ///   - channel: The session's channel.
    ///   - sessionId: The session; events are handed on with this id.
    ///   - enabledTypes: The types the session reports (licence and sensors).
    ///   - startTime: The session's start; events that ended before it are dropped.
    init(
        arbiter: StereoEventArbiter, channel: AnalysisChannel, sessionId: UUID, enabledTypes: Set<EventType>,
        startTime: Date
    ) {
        self.arbiter = arbiter
        self.channel = channel
        self.sessionId = sessionId
        self.enabledTypes = enabledTypes
        self.startTime = startTime
        arbiter.attach(channel)
    }

    func process(_ batch: AudioBatch) -> EventDetectorOutput {
        let probabilities = arbiter.probabilities(for: channel, batchStartingAt: batch.startTime)
        let started = arbiter.takeStarts(for: channel).filter { enabledTypes.contains($0.type) }
        return EventDetectorOutput(
            probabilities: probabilities.filter { enabledTypes.contains($0.key) }, started: started,
            ended: own(arbiter.take(for: channel)))
    }

    func finish() -> EventDetectorOutput {
        EventDetectorOutput(probabilities: [:], started: [], ended: own(arbiter.finish(for: channel)))
    }

    /// The choice of model made by the engine that listens to this session's channel.
    var bandLimitedModelChoice: Bool? { arbiter.bandLimitedModelChoice(for: channel) }

    func adoptModelChoice(bandLimited isBandLimited: Bool) {
        arbiter.adoptModelChoice(bandLimited: isBandLimited, for: channel)
    }

    private func own(_ events: [Event]) -> [Event] {
        events.compactMap { event in
            guard enabledTypes.contains(event.type), event.interval.end > startTime else { return nil }
            var mine = event
            mine.sessionId = sessionId
            return mine
        }
    }
}

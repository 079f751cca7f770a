import Foundation

/// Detects events on both channels of a stereo source and gives each to the sleeper who made it.
///
/// Per one-second batch pair it runs one events engine per channel and measures stereo cues (GCC-PHAT time
/// difference and level difference) on 64-ms frames (`StereoCueFrames`), only where an event can lie: from the
/// start of any event an engine reports or holds open. Frames that a later event could still cover wait
/// unmeasured, back to the earliest start the engines allow (`AudioEventsEngine.eventReach`); older ones are never
/// measured. An engine that cannot tell its reach gets every frame measured. When an event closes on either
/// channel, its cues over the
/// event's interval (confidence-weighted median delay, energy level difference, each channel's detection
/// strength) decide its owner through `StereoEventAssigner`. An event already given to a sleeper from the other
/// channel's detection is not given twice.
///
/// An event's start is announced as soon as either channel's engine reports it, to the sleeper the cues measured
/// from its start until then point at (once per sleeper, whichever channel detected it). That early decision
/// rests on the event's first second or so; the completed event is assigned on its whole interval, and so may in
/// rare cases go to the other sleeper than its start did.
///
/// Each channel's session reads its events through an `ArbitratedEventsEngine`, which attaches to its channel:
/// events are queued for attached channels only and handed over by `take(for:)`, so none is lost whichever
/// session reads first. The engines run only while a channel is attached. When a session stops while the other
/// goes on, the engines are finished (closing the events still open, for both channels) and replaced by fresh
/// ones, which keep the model (full band or band-limited) each channel's engine had chosen. Owned by the pipeline
/// thread.
package final class StereoEventArbiter {
    /// Analysis frame of the stereo cues, in samples (64 ms at 16 kHz).
    package static let cueFrameLength = 1024
    /// How long cues and probabilities are kept, in seconds: longer events are judged on their last part.
    static let retention: TimeInterval = 300

    /// One assignment, kept for evaluation when `recordsDecisions` is set.
    package struct Decision: Sendable {
        /// The event as the channel's engine reported it.
        package var event: Event
        /// The channel whose engine reported it.
        var detectedOn: AnalysisChannel
        /// Its measured cues.
        package var cues: EventStereoCues
        /// Its position, −1 (secondary) … +1 (primary).
        package var position: Double
        /// Where it went.
        var assignment: ChannelAssignment
    }

    private struct BatchProbabilities {
        var interval: DateInterval
        var primary: [EventType: Float]
        var secondary: [EventType: Float]
    }

    private let assigner: StereoEventAssigner
    private let makeEngine: (AnalysisChannel) -> any AudioEventsEngine
    private var engines: [any AudioEventsEngine]?
    private let frames: StereoCueFrames
    private var probabilities: [BatchProbabilities] = []
    private var delivered: [AnalysisChannel: [Event]] = [:]
    private var pending: [AnalysisChannel: [Event]] = [:]
    private var pendingStarts: [AnalysisChannel: [EventStartedInfo]] = [:]
    private var announced: [AnalysisChannel: [EventStartedInfo]] = [:]
    /// Seconds before an engine's earliest new event start from which waiting frames are still kept.
    static let reachMargin: TimeInterval = 0.5
    /// Two starts of one type on one channel closer than this (seconds) are one event heard on both channels.
    static let sameStartTolerance: TimeInterval = 3
    private var attached: Set<AnalysisChannel> = []

    /// Whether every assignment is kept in `decisions` (for evaluation; off in the SDK).
    package var recordsDecisions = false
    /// The assignments made so far, when `recordsDecisions` is set.
    package private(set) var decisions: [Decision] = []

    /// Creates the arbiter; `makeEngine` makes a channel's events engine whenever the engines (re)start.
    ///
    /// - Throws: the stereo analyser's set-up error.
    package init(
        config: ChannelSeparationConfig, makeEngine: @escaping (AnalysisChannel) -> any AudioEventsEngine
    ) throws {
        assigner = StereoEventAssigner(config: config)
        self.makeEngine = makeEngine
        let maximumDelay = max(config.microphoneSpacing / config.speedOfSound * 1.5, 0.001)
        frames = try StereoCueFrames(
            sampleRate: Double(AudioBatch.sampleRate), frameLength: Self.cueFrameLength, maxDelaySeconds: maximumDelay)
    }

    /// Starts queueing events for `channel` (its session's engine calls this); starts the engines if needed.
    package func attach(_ channel: AnalysisChannel) {
        attached.insert(channel)
        if engines == nil { engines = [makeEngine(.primary), makeEngine(.secondary)] }
    }

    /// Analyses one batch of each channel; afterwards `take(for:)` gives each channel's session its events and
    /// `probabilities(for:batchStartingAt:)` the batch's detection probabilities.
    /// The engines run only while a channel is attached, and cues are measured only where their events can be.
    package func process(primary: AudioBatch, secondary: AudioBatch) {
        frames.add(primary: primary, secondary: secondary)
        guard let engines else {
            // A new engine's events begin in the batches it analyses.
            frames.discardUnmeasured(before: .distantFuture)
            return
        }
        let updates = [engines[0].process(primary), engines[1].process(secondary)]
        measureCues(for: updates, engines: engines)
        probabilities.append(
            BatchProbabilities(
                interval: DateInterval(start: primary.startTime, end: primary.endTime),
                primary: updates[0].probabilities, secondary: updates[1].probabilities))
        forget(before: primary.endTime.addingTimeInterval(-Self.retention))
        announceStarts(updates, measuredUntil: primary.endTime)
        distribute(updates)
    }

    /// The events assigned to `channel` since the last call.
    package func take(for channel: AnalysisChannel) -> [Event] {
        defer { pending[channel] = [] }
        return pending[channel] ?? []
    }

    /// The event starts announced to `channel` since the last call.
    func takeStarts(for channel: AnalysisChannel) -> [EventStartedInfo] {
        defer { pendingStarts[channel] = [] }
        return pendingStarts[channel] ?? []
    }

    /// The detection probabilities on `channel` over the batch that began at `batchStart` (empty when the
    /// engines did not run then, or it is older than `retention`).
    func probabilities(for channel: AnalysisChannel, batchStartingAt batchStart: Date) -> [EventType: Float] {
        guard let batch = probabilities.last(where: { abs($0.interval.start.timeIntervalSince(batchStart)) < 1e-6 })
        else { return [:] }
        return channel == .primary ? batch.primary : batch.secondary
    }

    /// Closes the events still open (on both channels), detaches `channel` and returns its remaining events.
    /// When the other channel stays attached, fresh engines carry on for it.
    package func finish(for channel: AnalysisChannel) -> [Event] {
        let choices = engines?.map(\.bandLimitedModelChoice) ?? [nil, nil]
        if let engines {
            let updates = [engines[0].finish(), engines[1].finish()]
            measureCues(for: updates, engines: nil)
            distribute(updates)
            self.engines = nil
        }
        let events = take(for: channel)
        attached.remove(channel)
        pending[channel] = nil
        delivered[channel] = nil
        pendingStarts[channel] = nil
        announced[channel] = nil
        if !attached.isEmpty {
            // The fresh engines keep the models their channels chose.
            let fresh = [makeEngine(.primary), makeEngine(.secondary)]
            for (engine, choice) in zip(fresh, choices) {
                if let choice { engine.adoptModelChoice(bandLimited: choice) }
            }
            engines = fresh
        }
        return events
    }

    /// The band-limited model choice of `channel`'s events engine (nil while undecided, without a choice to make,
    /// or while no engine runs).
    func bandLimitedModelChoice(for channel: AnalysisChannel) -> Bool? {
        engines?[Self.engineIndex(of: channel)].bandLimitedModelChoice
    }

    /// Gives `channel`'s events engine a choice made before an interruption (see
    /// `AudioEventsEngine.adoptModelChoice(bandLimited:)`).
    func adoptModelChoice(bandLimited isBandLimited: Bool, for channel: AnalysisChannel) {
        engines?[Self.engineIndex(of: channel)].adoptModelChoice(bandLimited: isBandLimited)
    }

    private static func engineIndex(of channel: AnalysisChannel) -> Int { channel == .primary ? 0 : 1 }

    /// How many stereo-cue frames were measured so far, for tests and diagnostics.
    var cueFramesMeasured: Int { frames.measuredCount }

    /// The cues of an event interval, for tests and diagnostics.
    func cues(for type: EventType, over interval: DateInterval) -> EventStereoCues {
        let inside = frames.measured.filter { interval.contains($0.time) }
        let strong = inside.filter { $0.confidence > 0 }
        var result = EventStereoCues(
            // Loud frames carry the event's direct sound; quiet ones mostly room tone and reverberation.
            timeDifference: weightedMedian(
                strong.map { ($0.delay, $0.confidence * ($0.primaryEnergy + $0.secondaryEnergy)) }),
            correlationStrength: strong.isEmpty ? 0 : strong.map(\.confidence).reduce(0, +) / Double(strong.count),
            levelDifference: nil, primaryProbability: 0, secondaryProbability: 0)
        let primaryEnergy = inside.map(\.primaryEnergy).reduce(0, +)
        let secondaryEnergy = inside.map(\.secondaryEnergy).reduce(0, +)
        if primaryEnergy > 0 && secondaryEnergy > 0 {
            result.levelDifference = 10 * log10(primaryEnergy / secondaryEnergy)
        }
        for batch in probabilities where batch.interval.intersects(interval) {
            result.primaryProbability = max(result.primaryProbability, Double(batch.primary[type] ?? 0))
            result.secondaryProbability = max(result.secondaryProbability, Double(batch.secondary[type] ?? 0))
        }
        return result
    }

    // MARK: - Internals

    /// Measures the cues of the waiting frames that an event reported in `updates`, or one the engines still
    /// track, can cover, and drops those no event can cover any more. With an engine that cannot tell, or none
    /// left (`finish`), every waiting frame an event of `updates` may need is measured.
    private func measureCues(for updates: [EventDetectorOutput], engines: [any AudioEventsEngine]?) {
        guard frames.hasUnmeasured else { return }
        let reported = updates.flatMap { $0.started.map(\.startTime) + $0.ended.map(\.interval.start) }
        guard let engines else {
            if let earliest = reported.min() { frames.measure(from: earliest) }
            return
        }
        let reaches = engines.map(\.eventReach)
        guard reaches.allSatisfy({ $0 != nil }) else {
            frames.measure(from: .distantPast)
            return
        }
        if let earliest = (reported + reaches.compactMap { $0?.openEventStart }).min() {
            frames.measure(from: earliest)
        }
        // A margin against rounding: the frames' times and the events' starts are computed apart.
        if let newStart = reaches.compactMap({ $0?.earliestNewEventStart }).min() {
            frames.discardUnmeasured(before: newStart.addingTimeInterval(-Self.reachMargin))
        }
    }

    private func announceStarts(_ updates: [EventDetectorOutput], measuredUntil now: Date) {
        for update in updates {
            for start in update.started {
                let measured = cues(
                    for: start.type,
                    over: DateInterval(
                        start: start.startTime,
                        end: max(now, start.startTime)))
                let assignment = assigner.assign(start.type, cues: measured)
                for channel in AnalysisChannel.allCases where attached.contains(channel) && assignment.includes(channel)
                {
                    let repeated = announced[channel, default: []].contains {
                        $0.type == start.type
                            && abs($0.startTime.timeIntervalSince(start.startTime)) < Self.sameStartTolerance
                    }
                    guard !repeated else { continue }
                    announced[channel, default: []].append(start)
                    pendingStarts[channel, default: []].append(start)
                }
            }
        }
    }

    private func distribute(_ updates: [EventDetectorOutput]) {
        for (update, detectedOn) in zip(updates, [AnalysisChannel.primary, .secondary]) {
            for event in update.ended {
                let measured = cues(for: event.type, over: event.interval)
                let assignment = assigner.assign(event.type, cues: measured)
                if recordsDecisions {
                    decisions.append(
                        Decision(
                            event: event, detectedOn: detectedOn, cues: measured,
                            position: assigner.position(of: measured), assignment: assignment))
                }
                for channel in AnalysisChannel.allCases where attached.contains(channel) && assignment.includes(channel)
                {
                    guard !alreadyDelivered(event, to: channel) else { continue }
                    delivered[channel, default: []].append(event)
                    pending[channel, default: []].append(event)
                }
            }
        }
    }

    private func alreadyDelivered(_ event: Event, to channel: AnalysisChannel) -> Bool {
        delivered[channel, default: []].contains { $0.type == event.type && $0.interval.intersects(event.interval) }
    }

    private func forget(before time: Date) {
        frames.forget(before: time)
        frames.discardUnmeasured(before: time)
        // Batches come in time order: the old ones are a prefix.
        let stale = probabilities.prefix { $0.interval.end < time }.count
        if stale > 0 { probabilities.removeFirst(stale) }
        for channel in attached {
            delivered[channel]?.removeAll { $0.interval.end < time }
            pending[channel]?.removeAll { $0.interval.end < time }
            announced[channel]?.removeAll { $0.startTime < time }
        }
    }

    private func weightedMedian(_ values: [(value: Double, weight: Double)]) -> Double? {
        let sorted = values.filter { $0.weight > 0 && $0.value.isFinite }.sorted { $0.value < $1.value }
        let total = sorted.map(\.weight).reduce(0, +)
        guard total > 0 else { return nil }
        var running = 0.0
        for item in sorted {
            running += item.weight
            if running >= total / 2 { return item.value }
        }
        return sorted.last?.value
    }
}

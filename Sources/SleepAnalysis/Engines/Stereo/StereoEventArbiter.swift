import Foundation

/// Detects events on both channels of a stereo source and gives each to the sleeper who made it.
///
/// Per one-second batch pair it runs one events engine per channel and measures stereo cues (GCC-PHAT time
/// difference and level difference) on 64-ms frames. When an event closes on either channel, its cues over the
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
/// ones. Owned by the pipeline thread.
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

    private struct FrameCue {
        var time: Date
        var delay: Double
        var confidence: Double
        var primaryEnergy: Double
        var secondaryEnergy: Double
    }

    private struct BatchProbabilities {
        var interval: DateInterval
        var primary: [EventType: Float]
        var secondary: [EventType: Float]
    }

    private let assigner: StereoEventAssigner
    private let makeEngine: (AnalysisChannel) -> any AudioEventsEngine
    private var engines: [any AudioEventsEngine]?
    private let analyzer: StereoAnalyzer
    private var cues: [FrameCue] = []
    private var probabilities: [BatchProbabilities] = []
    private var delivered: [AnalysisChannel: [Event]] = [:]
    private var pending: [AnalysisChannel: [Event]] = [:]
    private var pendingStarts: [AnalysisChannel: [EventStartedInfo]] = [:]
    private var announced: [AnalysisChannel: [EventStartedInfo]] = [:]
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
        analyzer = try StereoAnalyzer(
            sampleRate: Double(AudioBatch.sampleRate), frameSize: Self.cueFrameLength, hopSize: Self.cueFrameLength,
            maxDelaySeconds: maximumDelay)
    }

    /// Starts queueing events for `channel` (its session's engine calls this); starts the engines if needed.
    package func attach(_ channel: AnalysisChannel) {
        attached.insert(channel)
        if engines == nil { engines = [makeEngine(.primary), makeEngine(.secondary)] }
    }

    /// Analyses one batch of each channel; afterwards `take(for:)` gives each channel's session its events and
    /// `probabilities(for:batchStartingAt:)` the batch's detection probabilities.
    /// Cues are measured all the time; the engines run only while a channel is attached.
    package func process(primary: AudioBatch, secondary: AudioBatch) {
        measureCues(primary, secondary)
        guard let engines else { return }
        let updates = [engines[0].process(primary), engines[1].process(secondary)]
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
        if let engines {
            distribute([engines[0].finish(), engines[1].finish()])
            self.engines = nil
        }
        let events = take(for: channel)
        attached.remove(channel)
        pending[channel] = nil
        delivered[channel] = nil
        pendingStarts[channel] = nil
        announced[channel] = nil
        if !attached.isEmpty { engines = [makeEngine(.primary), makeEngine(.secondary)] }
        return events
    }

    /// The cues of an event interval, for tests and diagnostics.
    func cues(for type: EventType, over interval: DateInterval) -> EventStereoCues {
        let inside = cues.filter { interval.contains($0.time) }
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

    private func measureCues(_ primary: AudioBatch, _ secondary: AudioBatch) {
        let length = min(primary.samples.count, secondary.samples.count)
        let frames: [StereoCues]
        do {
            frames = try analyzer.process(
                primary: Array(primary.samples[0..<length]), secondary: Array(secondary.samples[0..<length]))
        } catch {
            return
        }
        let rate = Double(AudioBatch.sampleRate)
        for frame in frames {
            // Frame i covers the cueFrameLength samples ending at sample (i + 1) * hop of the stream.
            let end = Int64(frame.frameIndex + 1) * Int64(Self.cueFrameLength) - primary.firstSampleIndex
            let start = max(0, Int(end) - Self.cueFrameLength)
            let stop = min(length, Int(end))
            guard start < stop else { continue }
            let time = primary.startTime.addingTimeInterval(Double(start + stop) / 2 / rate)
            cues.append(
                FrameCue(
                    time: time, delay: frame.delaySeconds, confidence: frame.confidence,
                    primaryEnergy: energy(primary.samples[start..<stop]),
                    secondaryEnergy: energy(secondary.samples[start..<stop])))
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
        if let keep = cues.firstIndex(where: { $0.time >= time }), keep > 0 { cues.removeFirst(keep) }
        probabilities.removeAll { $0.interval.end < time }
        for channel in attached {
            delivered[channel]?.removeAll { $0.interval.end < time }
            pending[channel]?.removeAll { $0.interval.end < time }
            announced[channel]?.removeAll { $0.startTime < time }
        }
    }

    private func energy(_ samples: ArraySlice<Float>) -> Double {
        samples.reduce(0) { $0 + Double($1) * Double($1) }
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

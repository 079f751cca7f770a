import Foundation

/// The audio event engine of one session: classifies overlapping one-second windows of front-end frames
/// (every half second), tracks each enabled event type with hysteresis, and reports per-batch probabilities,
/// events that start and complete events that end (snoring with its signature).
///
/// Types the model has no output for (`digestive`: no training data) are never reported. The caller decides
/// which types are enabled (licence features; movement only when no accelerometer is used). Not thread-safe:
/// feed it from one task.
///
/// Given a band-limited model as well, the detector switches to it, once and for the rest of the stream, when the
/// first seconds of sound hold nothing above 4 kHz (`BandLimitedModelChoice`); events open at that moment end
/// there. A stream recorded well below the models' training levels is read through a gain (`QuietStreamGain`).
package final class EventDetector {
    /// Seconds per front-end frame.
    static let frameSeconds = 0.01

    /// The model in use: the full-band one, or the band-limited one once the detector has switched to it.
    private(set) var model: EventClassifierModel
    let enabledTypes: Set<EventType>
    let sessionId: UUID
    private let schedule: EventWindowSchedule
    private var classifier: EventWindowClassifier
    /// The band-limited model and its classifier, until the detector switches to it or decides not to.
    private var bandLimited: (model: EventClassifierModel, classifier: EventWindowClassifier)?
    private var bandLimitedChoice: BandLimitedModelChoice?
    /// Whether the detector runs the band-limited model (the audio was judged band-limited).
    package var usesBandLimitedModel: Bool { bandLimitedModelChoice == true }
    /// The choice between the models once made (true: band-limited); nil while undecided or without a
    /// band-limited model.
    package private(set) var bandLimitedModelChoice: Bool?
    /// Windows classified so far, and those on which every member of the model's ensemble ran (see
    /// `EventClassifierModel.cascadeGate`).
    package var windowCounts: (classified: Int, everyMember: Int) {
        (classifier.windowsClassified, classifier.windowsWithEveryMember)
    }
    /// One tracker per enabled output, in output order: (output index, tracker).
    private var trackers: [(output: Int, tracker: EventHysteresis)] = []
    private var signature: SnoreSignatureAccumulator
    private var snoringOutput: Int?
    private var melBuffer: [Float] = []
    private var dbBuffer: [Float] = []
    private var bufferFirstFrame: Int64 = 0
    private var totalFrames: Int64 = 0
    private var lastWindowStart: Int64?
    private var origin: Date?
    private var lastProbabilities: [Float]
    private var pending = EventDetectorOutput(probabilities: [:], started: [], ended: [])
    private var batchMaximum: [Float]?
    private var quietStreamGain = QuietStreamGain()
    /// The gain (dB) through which the detector reads a stream recorded below the models' training levels (0 for
    /// streams at those levels; see `QuietStreamGain`).
    package var quietStreamGainDb: Float { quietStreamGain.gainDb }

    /// Creates a detector.
    ///
    /// - Parameters:
    ///   - model: The event model (see `EventClassifierModel.bundled()`).
    ///   - bandLimitedModel: The model for band-limited audio (`EventClassifierModel.bundledBandLimited()`), or
    ///     nil to run `model` whatever the audio.
    ///   - enabledTypes: The types to report; others get probability 0 and no events.
    ///   - sessionId: The session the events belong to.
    ///   - melBandCount: Mel bands per front-end frame (64).
    /// - Throws: `SleepCycleSdkError.modelIntegrityCheckFailed` when a model does not fit the front end, or the
    ///   band-limited model has other outputs or windows than `model`.
    package init(
        model: EventClassifierModel, bandLimitedModel: EventClassifierModel? = nil, enabledTypes: Set<EventType>,
        sessionId: UUID, melBandCount: Int = 64
    ) throws {
        self.model = model
        self.enabledTypes = enabledTypes
        self.sessionId = sessionId
        classifier = try EventWindowClassifier(model: model, melBandCount: melBandCount)
        if let bandLimitedModel {
            guard bandLimitedModel.outputNames == model.outputNames,
                bandLimitedModel.windowFrames == model.windowFrames,
                bandLimitedModel.windowHopFrames == model.windowHopFrames,
                bandLimitedModel.featureCount == model.featureCount
            else {
                throw SleepCycleSdkError.modelIntegrityCheckFailed(
                    "events-band-limited: its outputs, windows or features differ from the events model's")
            }
            bandLimited = (
                bandLimitedModel, try EventWindowClassifier(model: bandLimitedModel, melBandCount: melBandCount)
            )
            bandLimitedChoice = BandLimitedModelChoice()
        }
        schedule = EventWindowSchedule(windowFrames: model.windowFrames, hopFrames: model.windowHopFrames)
        signature = SnoreSignatureAccumulator(featureCount: model.featureCount)
        lastProbabilities = [Float](repeating: 0, count: model.outputNames.count)
        snoringOutput = model.outputTypes.firstIndex(of: .snoring)
        trackers = Self.trackers(for: model, enabledTypes: enabledTypes)
    }

    /// One hysteresis tracker per enabled output of `model`, with the model's thresholds and durations.
    private static func trackers(
        for model: EventClassifierModel, enabledTypes: Set<EventType>
    ) -> [(output: Int, tracker: EventHysteresis)] {
        model.outputTypes.enumerated().compactMap { index, type in
            guard let type, enabledTypes.contains(type), let on = model.onThreshold[type],
                let off = model.offThreshold[type]
            else { return nil }
            let tracker = EventHysteresis(
                onThreshold: on, offThreshold: off, minDuration: model.minDuration[type] ?? 0,
                mergeGap: model.mergeGap)
            return (index, tracker)
        }
    }

    /// Analyses one batch of audio.
    ///
    /// - Parameter batch: The next batch of the session (consecutive, no gap).
    /// - Returns: Probabilities over the batch and the events that started and ended in it.
    package func process(_ batch: AudioBatch) -> EventDetectorOutput {
        process(features: batch.features, batchStart: batch.startTime, firstSampleIndex: batch.firstSampleIndex)
    }

    /// Analyses the front-end frames of one batch.
    ///
    /// - Parameters:
    ///   - features: The batch's frames (consecutive with the previous call's).
    ///   - batchStart: Time of the batch's first sample.
    ///   - firstSampleIndex: Index of that sample since the stream began.
    /// - Returns: Probabilities over the batch and the events that started and ended in it.
    package func process(features: FeatureBlock, batchStart: Date, firstSampleIndex: Int64) -> EventDetectorOutput {
        // Frames are counted from the first one this detector sees, so that is where its clock starts.
        if origin == nil { origin = batchStart }
        let heard = quietStreamGain.apply(to: features)
        // Judged through the gain: a quiet stream's sound reaches the level the choice judges.
        if bandLimitedChoice?.add(heard) != nil { decideModel() }
        melBuffer.append(contentsOf: heard.logMel.prefix(features.frameCount * classifier.melBandCount))
        dbBuffer.append(contentsOf: heard.dbfs.prefix(features.frameCount))
        quietStreamGain.add(dbfs: features.dbfs.prefix(features.frameCount))
        for _ in 0..<features.frameCount {
            totalFrames += 1
            if let start = schedule.windowEnding(atFrameCount: totalFrames) {
                evaluateWindow(start: start, frames: model.windowFrames)
            }
        }
        compactBuffers()
        return takeOutput()
    }

    /// Classifies the tail of the stream not yet covered by a window and closes every open event.
    ///
    /// - Returns: The last probabilities and the events that ended at the end of the stream.
    package func finish() -> EventDetectorOutput {
        if let last = schedule.finalWindow(totalFrames: totalFrames, lastStart: lastWindowStart) {
            evaluateWindow(start: last.start, frames: last.frames)
        }
        for position in trackers.indices {
            if let span = trackers[position].tracker.finish() {
                emitEnded(span, output: trackers[position].output)
            }
        }
        return takeOutput()
    }

    /// How far back the events this detector reports from now on can begin: an open event's start, and for
    /// events not yet open the start of a window ending now (every later window starts after it, and an event
    /// begins inside the window that opens it). Before the first batch, any time.
    package var eventReach: EventReach? {
        guard origin != nil else { return EventReach(openEventStart: nil, earliestNewEventStart: .distantPast) }
        let openStart = trackers.compactMap { $0.tracker.open?.start }.min()
        let windowStart = Double(max(0, totalFrames - Int64(model.windowFrames))) * Self.frameSeconds
        return EventReach(openEventStart: openStart.map(date), earliestNewEventStart: date(windowStart))
    }

    // MARK: - Model

    /// Acts on the band-limited choice once made: switches to the band-limited model (ending the events open now,
    /// which the full-band model found) or lets it go.
    private func decideModel() {
        guard let bandLimitedChoice, let isBandLimited = bandLimitedChoice.isBandLimited else { return }
        apply(bandLimited: isBandLimited)
    }

    /// Takes a choice made before an interruption (the journaled `bandLimitedModelChoice`), for a session that
    /// continues without the audio it was made on; ignored once the detector has chosen, or without a band-limited
    /// model.
    package func adoptModelChoice(bandLimited isBandLimited: Bool) {
        guard bandLimitedChoice != nil else { return }
        apply(bandLimited: isBandLimited)
    }

    /// Keeps the full-band model, or switches to the band-limited one (ending the events open now, which the
    /// full-band model found).
    private func apply(bandLimited isBandLimited: Bool) {
        bandLimitedChoice = nil
        bandLimitedModelChoice = isBandLimited
        defer { bandLimited = nil }
        guard isBandLimited, let bandLimited else { return }
        for position in trackers.indices {
            if let span = trackers[position].tracker.finish() {
                emitEnded(span, output: trackers[position].output)
            }
        }
        model = bandLimited.model
        classifier = bandLimited.classifier
        trackers = Self.trackers(for: model, enabledTypes: enabledTypes)
        signature = SnoreSignatureAccumulator(featureCount: model.featureCount)
        snoringOutput = model.outputTypes.firstIndex(of: .snoring)
    }

    // MARK: - Windows

    private func evaluateWindow(start: Int64, frames: Int) {
        let bands = classifier.melBandCount
        let offset = Int(start - bufferFirstFrame)
        melBuffer.withUnsafeBufferPointer { mel in
            dbBuffer.withUnsafeBufferPointer { db in
                classifier.classify(
                    logMel: mel.baseAddress! + offset * bands, dbfs: db.baseAddress! + offset,
                    frames: frames, firstFrame: start)
            }
        }
        lastWindowStart = start
        let probabilities = classifier.probabilities
        lastProbabilities = probabilities
        if batchMaximum == nil {
            batchMaximum = probabilities
        } else {
            for index in probabilities.indices {
                batchMaximum![index] = max(batchMaximum![index], probabilities[index])
            }
        }
        let centre = (Double(start) + Double(frames) / 2) * Self.frameSeconds
        let half = Double(model.windowHopFrames) / 2 * Self.frameSeconds
        for position in trackers.indices {
            let index = trackers[position].output
            let step = trackers[position].tracker.step(
                probability: probabilities[index], start: centre - half,
                end: centre + half)
            if let ended = step.ended { emitEnded(ended, output: index) }
            if let started = step.started, let type = model.outputTypes[index] {
                pending.started.append(
                    EventStartedInfo(
                        type: type, startTime: date(started.start),
                        probability: started.peakProbability))
            }
            if step.windowInEvent && index == snoringOutput { signature.add(classifier.features) }
        }
    }

    private func emitEnded(_ span: EventHysteresis.Span, output index: Int) {
        guard let type = model.outputTypes[index] else { return }
        var snoreSignature: [Float]?
        if index == snoringOutput {
            snoreSignature = signature.signature(model: model)
            signature.reset()
        }
        pending.ended.append(
            Event(
                type: type, interval: DateInterval(start: date(span.start), end: date(span.end)),
                probability: Double(span.peakProbability), source: .audio, sessionId: sessionId,
                signature: snoreSignature))
    }

    private func date(_ seconds: Double) -> Date {
        (origin ?? Date(timeIntervalSince1970: 0)).addingTimeInterval(max(0, seconds))
    }

    private func takeOutput() -> EventDetectorOutput {
        let values = batchMaximum ?? lastProbabilities
        var probabilities: [EventType: Float] = [:]
        for type in EventType.allCases { probabilities[type] = 0 }
        for (index, type) in model.outputTypes.enumerated() {
            if let type, enabledTypes.contains(type) { probabilities[type] = values[index] }
        }
        var output = pending
        output.probabilities = probabilities
        pending = EventDetectorOutput(probabilities: [:], started: [], ended: [])
        batchMaximum = nil
        return output
    }

    /// Keeps only the frames a later window can still need (the last window's length).
    private func compactBuffers() {
        let keep = Int64(model.windowFrames)
        let held = totalFrames - bufferFirstFrame
        guard held > 2 * keep else { return }
        let drop = Int(held - keep)
        melBuffer.removeFirst(drop * classifier.melBandCount)
        dbBuffer.removeFirst(drop)
        bufferFirstFrame += Int64(drop)
    }
}

import Foundation

/// Measures the breathing rate from audio (the envelope of breath and snore sounds) and from an accelerometer on
/// the mattress (respiratory micro-motion), fused when both are there.
///
/// Every `hopSeconds` (30 s) on a grid starting at the session's first data, the last `windowSeconds` (60 s) of each
/// sensor are analysed; a window with nothing periodic gives nothing (no rate is invented on silence or noise).
/// Not thread-safe: one session's pipeline feeds it from one task.
package final class BreathingRateEstimator {
    /// The session the estimates belong to.
    let sessionId: UUID
    /// The tuning in use.
    let configuration: BreathingRateConfiguration

    private let envelope: BreathEnvelope
    private let audioAnalyzer: PeriodicityAnalyzer
    private let motionAnalyzer: PeriodicityAnalyzer
    private var audioWindow: FrameWindow
    private var motionWindow: FrameWindow
    private var motionFrames: AccelerometerFrames
    private var expectedAudioStart: Date?
    private var reference: Date?
    private var nextAudioBoundary = 1
    private var nextMotionBoundary = 1
    private var audioSeen = false
    private var motionSeen = false
    private var pending: [Int: PendingWindow] = [:]
    private var nextToPublish = 1
    /// The last audio rates found (at most `neighbourWindows`), for the neighbouring-window check.
    private var recentAudioRates: [Double] = []

    /// What is known about one window end on the grid.
    private struct PendingWindow {
        var audioDone = false
        var motionDone = false
        var audio: ModalityEstimate?
        var motion: ModalityEstimate?
    }

    /// Creates an estimator.
    ///
    /// - Parameters:
    ///   - sessionId: Stamped on every estimate.
    ///   - configuration: Tuning; the defaults suit the pipeline's 16 kHz batches.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` when a value is out of range.
    package init(sessionId: UUID, configuration: BreathingRateConfiguration = BreathingRateConfiguration()) throws {
        try configuration.validate()
        self.sessionId = sessionId
        self.configuration = configuration
        let frameRate = 1 / configuration.frameSeconds
        let windowFrames = Int((configuration.windowSeconds * frameRate).rounded()) + 1
        envelope = try BreathEnvelope(frontEnd: .standard, frameSeconds: configuration.frameSeconds)
        audioAnalyzer = try PeriodicityAnalyzer(
            frameRate: frameRate, minimumBpm: configuration.minimumBpm, maximumBpm: configuration.maximumBpm,
            peakFraction: configuration.peakFraction, alternationThreshold: configuration.alternationThreshold,
            searchesHalfCycles: true, harmonicFraction: configuration.harmonicFraction, maximumFrames: windowFrames,
            maximumChannels: envelope.bandCount)
        motionAnalyzer = try PeriodicityAnalyzer(
            frameRate: frameRate, minimumBpm: configuration.minimumBpm, maximumBpm: configuration.maximumBpm,
            peakFraction: configuration.peakFraction, alternationThreshold: configuration.alternationThreshold,
            searchesHalfCycles: false, harmonicFraction: configuration.harmonicFraction, maximumFrames: windowFrames,
            maximumChannels: 3)
        // The windows keep 2 s more than analysed: a batch (or a pause between accelerometer readings) may bring
        // frames past a window's end before the window is analysed.
        let kept = windowFrames + Int((2 * frameRate).rounded())
        audioWindow = FrameWindow(
            channelCount: envelope.bandCount, frameSeconds: configuration.frameSeconds,
            capacity: kept)
        motionWindow = FrameWindow(channelCount: 3, frameSeconds: configuration.frameSeconds, capacity: kept)
        motionFrames = AccelerometerFrames(
            frameSeconds: configuration.frameSeconds,
            movementThresholdG: configuration.movementThresholdG)
    }

    /// Takes the next batch of audio: its front-end frames (the envelope of breath sounds is read from their mel
    /// energies). A batch that does not carry on from the last one (a jump of more than half a second, or frames
    /// that do not follow) restarts the audio window.
    ///
    /// - Returns: Estimates for windows that ended, in time order (usually none, one every 30 s).
    package func process(_ batch: AudioBatch) -> [BreathingRate] {
        let block = batch.features
        if reference == nil { reference = batch.startTime }
        let onTime = expectedAudioStart.map { abs(batch.startTime.timeIntervalSince($0)) <= 0.5 } ?? false
        if !onTime || !envelope.continues(block) {
            // The window's frame 0 is the envelope frame that begins at front-end frame `first`, that is at sample
            // first * hop of the analysis signal.
            let first = envelope.restart(at: block.firstFrameIndex)
            let frontEnd = FrontEndConfiguration.standard
            let offset = Double(first * Int64(frontEnd.hopSize) - batch.firstSampleIndex) / frontEnd.sampleRate
            let origin = batch.startTime.addingTimeInterval(offset)
            audioWindow.restart(at: origin)
            recentAudioRates.removeAll()
            skipBoundaries(before: origin, next: &nextAudioBoundary)
        }
        audioSeen = true
        expectedAudioStart = batch.endTime
        // A second of frames at a time, so that every window end inside a long batch is analysed while its frames
        // are still kept.
        let second = Int((1 / FrontEndConfiguration.standard.frameDuration).rounded())
        for lower in stride(from: 0, to: block.frameCount, by: second) {
            audioWindow.append(envelope.process(block, frames: lower..<min(block.frameCount, lower + second)))
            analyseAudio()
        }
        return publishReady()
    }

    /// Takes accelerometer readings (in g, time order).
    ///
    /// - Returns: Estimates for windows that ended, in time order.
    func process(accelerometer samples: [AccelerometerSample]) -> [BreathingRate] {
        guard let first = samples.first else { return [] }
        if reference == nil { reference = first.timestamp }
        motionSeen = true
        var rates: [BreathingRate] = []
        // One reading at a time, so that every window end is analysed while its frames are still kept.
        for sample in samples {
            let before = motionWindow.origin
            motionFrames.feed([sample], into: &motionWindow)
            if let origin = motionWindow.origin, origin != before {
                skipBoundaries(before: origin, next: &nextMotionBoundary)
            }
            if let latest = motionWindow.latestTime,
                boundaryTime(nextMotionBoundary) <= latest.addingTimeInterval(1e-6)
            {
                analyseMotion()
                rates += publishReady()
            }
        }
        return rates + publishReady()
    }

    /// Ends the session: analyses the last, partial window of each sensor and publishes everything still pending.
    ///
    /// - Returns: The remaining estimates, in time order.
    package func finish() -> [BreathingRate] {
        guard let reference else { return [] }
        let hop = configuration.hopSeconds
        let audioEnd = audioWindow.latestTime, motionEnd = motionWindow.latestTime
        if let end = [audioEnd, motionEnd].compactMap({ $0 }).max() {
            let last = Int((end.timeIntervalSince(reference) / hop).rounded(.up))
            // A final window ending at the end of the data, if it adds at least half a hop.
            if last >= max(nextAudioBoundary, nextMotionBoundary),
                end.timeIntervalSince(boundaryTime(last - 1)) >= hop / 2
            {
                var window = pending[last] ?? PendingWindow()
                if let audioEnd, audioSeen {
                    window.audio = estimate(audio: audioEnd)
                    window.audioDone = true
                }
                if let motionEnd, motionSeen {
                    window.motion = estimate(motion: motionEnd)
                    window.motionDone = true
                }
                pending[last] = window
                finalTimes[last] = end
            }
        }
        return publish(through: Int.max)
    }

    private var finalTimes: [Int: Date] = [:]

    private func boundaryTime(_ index: Int) -> Date {
        (reference ?? Date(timeIntervalSince1970: 0)).addingTimeInterval(Double(index) * configuration.hopSeconds)
    }

    private func skipBoundaries(before time: Date, next: inout Int) {
        while boundaryTime(next) < time { next += 1 }
    }

    private func analyseAudio() {
        guard let latest = audioWindow.latestTime else { return }
        while boundaryTime(nextAudioBoundary) <= latest.addingTimeInterval(1e-6) {
            pending[nextAudioBoundary, default: PendingWindow()].audio =
                estimate(audio: boundaryTime(nextAudioBoundary))
            pending[nextAudioBoundary, default: PendingWindow()].audioDone = true
            nextAudioBoundary += 1
        }
    }

    private func analyseMotion() {
        guard let latest = motionWindow.latestTime else { return }
        while boundaryTime(nextMotionBoundary) <= latest.addingTimeInterval(1e-6) {
            pending[nextMotionBoundary, default: PendingWindow()].motion =
                estimate(motion: boundaryTime(nextMotionBoundary))
            pending[nextMotionBoundary, default: PendingWindow()].motionDone = true
            nextMotionBoundary += 1
        }
    }

    private func estimate(audio end: Date) -> ModalityEstimate? {
        let window = audioWindow.frames(endingAt: end, length: configuration.windowSeconds)
        guard window.seconds >= configuration.minimumWindowSeconds else { return nil }
        guard var found = audioAnalyzer.analyze(frames: window.values, channelCount: audioWindow.channelCount) else {
            return nil
        }
        let own = accept(found)
        var decision = NeighbourDecision.keep
        if configuration.neighbourWindows > 0, own != nil {
            decision = Self.neighbourDecision(
                bpm: found.bpm, recent: recentAudioRates, minimumScore: configuration.minimumScore
            ) { self.audioAnalyzer.rate(near: $0, tolerance: 0.15) }
            // The window's own rate joins the history even when it is not published, so that a real change of
            // rate by a factor is published from the next window on.
            recentAudioRates.append(found.bpm)
            if recentAudioRates.count > configuration.neighbourWindows { recentAudioRates.removeFirst() }
        }
        switch decision {
        case .keep: return own
        case .drop: return nil
        case .replace(let bpm, let score):
            found.bpm = bpm
            found.score = score
            return accept(found)
        }
    }

    /// What the neighbouring-window check does with a window's rate.
    enum NeighbourDecision: Equatable {
        /// Publish the window's own rate.
        case keep
        /// Publish the window's periodicity near the neighbours' rate instead.
        case replace(bpm: Double, score: Double)
        /// Publish nothing: the rate is a factor away from the neighbours' and the window has nothing there.
        case drop
    }

    /// The neighbouring-window check, for a rate about 2 or 3 times (or a half or a third of) the median of the last
    /// windows' rates (at least two); any other rate is kept.
    ///
    /// A rate slower than its neighbours by such a factor may be a period of two or three breaths: it is replaced by
    /// the window's periodicity near the neighbours' rate when that scores at least `minimumScore`, and dropped
    /// otherwise. A rate faster by such a factor is dropped, never replaced: a real speed-up to twice the rate still
    /// has an autocorrelation peak at the old period (two new breaths), so "correcting" it would report the old
    /// rate (composed nights, `Tools/breathing/README.md`). A rate off by a factor looks right and is worse than none.
    ///
    /// - Parameters:
    ///   - bpm: The window's rate.
    ///   - recent: The last windows' rates, oldest first.
    ///   - minimumScore: The abstention score.
    ///   - near: The window's periodicity near a rate (its rate and score), if it has one.
    static func neighbourDecision(
        bpm: Double, recent: [Double], minimumScore: Double, near: (Double) -> (bpm: Double, score: Double)?
    ) -> NeighbourDecision {
        guard recent.count >= 2, let neighbour = median(recent), isFactor(bpm / neighbour) else { return .keep }
        guard neighbour > bpm, let found = near(neighbour), found.score >= minimumScore else { return .drop }
        return .replace(bpm: found.bpm, score: found.score)
    }

    /// Whether `ratio` is about 2, 3, 1/2 or 1/3 (within 12 %).
    static func isFactor(_ ratio: Double) -> Bool {
        guard ratio.isFinite, ratio > 0 else { return false }
        return [2.0, 3.0, 0.5, 1.0 / 3.0].contains { abs(ratio / $0 - 1) <= 0.12 }
    }

    /// The median of `values`, nil when empty.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private func estimate(motion end: Date) -> ModalityEstimate? {
        let window = motionWindow.frames(endingAt: end, length: configuration.windowSeconds)
        let validSeconds = Double(window.valid.reduce(0) { $0 + Int($1) }) * configuration.frameSeconds
        guard validSeconds >= configuration.minimumWindowSeconds else { return nil }
        let centred = Self.removeSegmentMeans(window.values, valid: window.valid, channels: 3)
        return accept(motionAnalyzer.analyze(frames: centred, channelCount: 3, valid: window.valid))
    }

    private func accept(_ found: PeriodEstimate?) -> ModalityEstimate? {
        guard let found, found.score >= configuration.minimumScore,
            found.bpm >= configuration.minimumBpm - 0.5, found.bpm <= configuration.maximumBpm + 0.5
        else { return nil }
        return ModalityEstimate(bpm: found.bpm, confidence: configuration.confidence(forScore: found.score))
    }

    /// Subtracts each run of valid frames' own mean, so that the phone settling differently after a movement
    /// leaves no step in the signal.
    static func removeSegmentMeans(_ values: [Float], valid: [UInt8], channels: Int) -> [Float] {
        var out = values
        var start = 0
        while start < valid.count {
            guard valid[start] != 0 else {
                start += 1
                continue
            }
            var end = start
            while end < valid.count && valid[end] != 0 { end += 1 }
            for ch in 0..<channels {
                var sum = 0.0
                for t in start..<end { sum += Double(values[t * channels + ch]) }
                let mean = Float(sum / Double(end - start))
                for t in start..<end { out[t * channels + ch] -= mean }
            }
            start = end
        }
        return out
    }

    private func publishReady() -> [BreathingRate] {
        let audioExpected = configuration.useAudio || audioSeen
        let motionExpected = configuration.useAccelerometer || motionSeen
        // A sensor that falls more than two windows behind is not waited for.
        let leader = max(audioSeen ? nextAudioBoundary : 0, motionSeen ? nextMotionBoundary : 0)
        var through = nextToPublish - 1
        var index = nextToPublish
        while index < leader {
            let audioReady = !audioExpected || nextAudioBoundary > index
            let motionReady = !motionExpected || nextMotionBoundary > index
            guard (audioReady && motionReady) || leader - index > 2 else { break }
            through = index
            index += 1
        }
        return publish(through: through)
    }

    private func publish(through last: Int) -> [BreathingRate] {
        var out: [BreathingRate] = []
        for index in pending.keys.sorted() where index <= last {
            let window = pending.removeValue(forKey: index)!
            if let fused = BreathingFusion.fuse(
                audio: window.audio, accelerometer: window.motion,
                tolerance: configuration.agreementTolerance)
            {
                let time = finalTimes.removeValue(forKey: index) ?? boundaryTime(index)
                out.append(
                    BreathingRate(
                        timestamp: time, bpm: fused.bpm, confidence: fused.confidence,
                        sessionId: sessionId))
            }
        }
        if last != Int.max { nextToPublish = max(nextToPublish, last + 1) }
        return out
    }
}

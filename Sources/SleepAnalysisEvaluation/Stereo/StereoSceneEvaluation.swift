import Foundation
import SleepAnalysis

/// What happened to one true event of a composed stereo scene.
package struct StereoEventOutcome: Sendable, Codable {
    /// The sleeper who made it.
    package var owner: AnalysisChannel
    /// Its kind.
    package var type: EventType
    /// Where it went: `primary`, `secondary`, `both` or `neither`.
    package var assignment: String
    /// Whether the detector (stand-in) reported it on at least one channel.
    package var detected: Bool
    /// Its position, −1 (secondary) … +1 (primary), when it was detected.
    package var position: Double?
    /// Whether the position fell inside the ambiguity zone (the configured resolution decided).
    package var insideAmbiguityZone: Bool
    /// Whether it was too weakly detected to be assigned (minimum detection confidence).
    package var belowConfidence: Bool
    /// The measured time difference, seconds, when measured.
    package var measuredDelay: Double?
    /// The true time difference, seconds.
    package var expectedDelay: Double
    /// The measured level difference, dB, when measured.
    package var measuredLevelDifference: Double?
    /// The true direct-path level difference, dB.
    package var expectedLevelDifference: Double
}

/// Runs the stereo event assignment of the SDK (`StereoCueFrames` cues, `StereoEventArbiter`,
/// `StereoEventAssigner`) over a composed scene whose events are known.
///
/// Each channel's detector is `GroundTruthEventsEngine` (the true events, with a detection probability from the
/// event's SNR on that channel), so the figures measure the spatial assignment, not the detector. That engine does
/// not tell its `eventReach`, so the cues of every frame are measured.
package enum StereoSceneEvaluation {
    /// Evaluates one scene.
    ///
    /// - Parameters:
    ///   - audio: The scene's stereo WAV (16 kHz; channel 0 primary).
    ///   - truth: Its ground truth.
    ///   - config: The channel separation under test.
    /// - Returns: One outcome per true event, in the truth's order.
    /// - Throws: `SleepCycleSdkError.invalidInput` for an unreadable or non-stereo file, `.invalidConfiguration`
    ///   for a bad `config`.
    package static func evaluate(
        audio: URL, truth: StereoSceneTruth, config: ChannelSeparationConfig
    ) throws -> [StereoEventOutcome] {
        try config.validate()
        let (primary, secondary) = try readStereo(audio)
        let origin = Date(timeIntervalSinceReferenceDate: 0)
        let intervals = truth.events.map { event in
            DateInterval(
                start: origin.addingTimeInterval(event.start),
                end: origin.addingTimeInterval(max(event.end, event.start + 0.01)))
        }
        let floors = [noiseFloor(primary), noiseFloor(secondary)]
        var made = 0
        let arbiter = try StereoEventArbiter(config: config) { channel in
            made += 1
            guard made <= 2 else { return SilentEventsEngine() }
            let samples = channel == .primary ? primary : secondary
            let floor = floors[channel == .primary ? 0 : 1]
            return GroundTruthEventsEngine(
                events: zip(truth.events, intervals).map { event, interval in
                    (event.type, interval, snr(samples, event.start, event.end, floor: floor))
                }, sessionId: UUID())
        }
        arbiter.recordsDecisions = true
        arbiter.attach(.primary)
        arbiter.attach(.secondary)
        var received: [AnalysisChannel: [Event]] = [:]
        let rate = AudioBatch.sampleRate
        var first = 0
        while first < primary.count {
            let last = min(primary.count, first + AudioBatch.standardLength)
            let features = FeatureBlock(
                firstFrameIndex: 0, frameCount: 0, melBandCount: 0, logMel: [], dbSpl: [], dbfs: [])
            let start = origin.addingTimeInterval(Double(first) / Double(rate))
            arbiter.process(
                primary: AudioBatch(
                    firstSampleIndex: Int64(first), startTime: start, samples: Array(primary[first..<last]),
                    features: features),
                secondary: AudioBatch(
                    firstSampleIndex: Int64(first), startTime: start, samples: Array(secondary[first..<last]),
                    features: features))
            for channel in AnalysisChannel.allCases { received[channel, default: []] += arbiter.take(for: channel) }
            first = last
        }
        for channel in AnalysisChannel.allCases { received[channel, default: []] += arbiter.finish(for: channel) }

        return zip(truth.events, intervals).map { event, interval in
            let decision = arbiter.decisions.first { $0.event.interval == interval && $0.event.type == event.type }
            let toPrimary = received[.primary, default: []].contains { $0.interval == interval }
            let toSecondary = received[.secondary, default: []].contains { $0.interval == interval }
            let assignment: ChannelAssignment =
                toPrimary ? (toSecondary ? .both : .primary) : (toSecondary ? .secondary : .neither)
            let rules = config.resolved(for: event.type)
            var belowConfidence = false
            var inside = false
            if let decision {
                let strongest = max(decision.cues.primaryProbability, decision.cues.secondaryProbability)
                belowConfidence = strongest < rules.minimumConfidence
                inside = !belowConfidence && abs(decision.position) <= rules.zone
            }
            return StereoEventOutcome(
                owner: event.owner, type: event.type, assignment: assignment.rawValue, detected: decision != nil,
                position: decision?.position, insideAmbiguityZone: inside, belowConfidence: belowConfidence,
                measuredDelay: decision?.cues.timeDifference, expectedDelay: event.expectedDelay,
                measuredLevelDifference: decision?.cues.levelDifference,
                expectedLevelDifference: event.expectedLevelDifference)
        }
    }

    private static func readStereo(_ url: URL) throws -> ([Float], [Float]) {
        let reader = try AudioFileReader(url: url)
        guard reader.channelCount == 2, reader.sampleRate == Double(AudioBatch.sampleRate) else {
            throw SleepCycleSdkError.invalidInput(
                "\(url.path): a 16 kHz stereo scene expected "
                    + "(\(reader.channelCount) channel(s), \(reader.sampleRate) Hz)")
        }
        var primary: [Float] = []
        var secondary: [Float] = []
        while let block = try reader.read(maxFrames: 65_536) {
            for frame in 0..<(block.count / 2) {
                primary.append(block[2 * frame])
                secondary.append(block[2 * frame + 1])
            }
        }
        return (primary, secondary)
    }

    /// The channel's room tone: the 10th percentile of 64-ms frame energies (mean square).
    private static func noiseFloor(_ samples: [Float]) -> Double {
        let frame = StereoEventArbiter.cueFrameLength
        var energies: [Double] = []
        var start = 0
        while start + frame <= samples.count {
            energies.append(meanSquare(samples, start, start + frame))
            start += frame
        }
        guard !energies.isEmpty else { return 1e-12 }
        energies.sort()
        return max(energies[energies.count / 10], 1e-12)
    }

    /// The event's SNR on one channel, dB: its mean square over the room tone.
    private static func snr(_ samples: [Float], _ start: Double, _ end: Double, floor: Double) -> Double {
        let rate = Double(AudioBatch.sampleRate)
        let first = max(0, min(samples.count, Int(start * rate)))
        let last = max(first, min(samples.count, Int(end * rate)))
        guard last > first else { return 0 }
        return 10 * log10(max(meanSquare(samples, first, last), 1e-12) / floor)
    }

    private static func meanSquare(_ samples: [Float], _ first: Int, _ last: Int) -> Double {
        var sum = 0.0
        for index in first..<last { sum += Double(samples[index]) * Double(samples[index]) }
        return sum / Double(max(1, last - first))
    }
}

import Foundation

/// How events heard by a stereo source (two microphones, one per sleeper) are assigned to the sleepers.
///
/// Each event gets a position between −1 (at the secondary microphone) and +1 (at the primary one), the weighted
/// mean of up to three cues: the inter-channel time difference (GCC-PHAT; scaled by the largest possible delay,
/// `microphoneSpacing / speedOfSound`), the level difference (scaled by `levelDifferenceScale`), and the detection
/// strength on each channel. Outside the ambiguity zone (`|position| > ambiguityZone`) the event goes to the
/// nearer sleeper; inside it, `ambiguityResolution` decides.
public struct ChannelSeparationConfig: Sendable, Hashable, Codable {
    /// What to do with an event inside the ambiguity zone.
    public enum AmbiguityResolution: String, Sendable, Hashable, Codable {
        /// Assign it to both sleepers.
        case both
        /// Assign it to neither.
        case neither
        /// Assign it to the side the position leans to, however slightly.
        case stronger
    }

    /// Settings that override the general ones for one event type.
    public struct EventTypeSettings: Sendable, Hashable, Codable {
        /// The ambiguity zone for this type, or nil for the general one.
        public var ambiguityZone: Double?
        /// The ambiguity resolution for this type, or nil for the general one.
        public var ambiguityResolution: AmbiguityResolution?
        /// The minimum detection probability for this type, or nil for the general one.
        public var minimumDetectionConfidence: Double?

        /// Creates per-type settings; nil fields fall back to the general ones.
        ///
        /// - Parameters:
        ///   - ambiguityZone: The ambiguity zone for this type, or nil for the general one.
        ///   - ambiguityResolution: The ambiguity resolution for this type, or nil for the general one.
        ///   - minimumDetectionConfidence: The minimum detection probability for this type, or nil for the general one.
        public init(
            ambiguityZone: Double? = nil, ambiguityResolution: AmbiguityResolution? = nil,
            minimumDetectionConfidence: Double? = nil
        ) {
            self.ambiguityZone = ambiguityZone
            self.ambiguityResolution = ambiguityResolution
            self.minimumDetectionConfidence = minimumDetectionConfidence
        }
    }

    /// Distance between the two microphones, in metres.
    public var microphoneSpacing: Double
    /// Speed of sound, in metres per second.
    public var speedOfSound: Double
    /// Half-width of the ambiguity zone around the middle, 0...1 of the position scale.
    public var ambiguityZone: Double
    /// What to do inside the ambiguity zone.
    public var ambiguityResolution: AmbiguityResolution
    /// Weight of the time-difference cue (0 disables it).
    public var timeDifferenceWeight: Double
    /// Weight of the level-difference cue (0 disables it).
    public var levelDifferenceWeight: Double
    /// Weight of the detection-strength cue (0 disables it).
    public var detectionStrengthWeight: Double
    /// Level difference, in dB, that places a sound fully on one side.
    public var levelDifferenceScale: Double
    /// Minimum GCC-PHAT peak strength (0...1) for the time difference to count.
    public var minimumCorrelationStrength: Double
    /// Minimum detection probability (on the stronger channel) for an event to be assigned at all.
    public var minimumDetectionConfidence: Double
    /// Per-event-type overrides.
    public var eventTypeSettings: [EventType: EventTypeSettings]

    /// Creates a configuration; every parameter is tunable.
    ///
    /// - Parameters:
    ///   - microphoneSpacing: Distance between the two microphones, in metres.
    ///   - speedOfSound: Speed of sound, in metres per second.
    ///   - ambiguityZone: Half-width of the ambiguity zone around the middle, 0...1 of the position scale.
    ///   - ambiguityResolution: What to do inside the ambiguity zone.
    ///   - timeDifferenceWeight: Weight of the time-difference cue (0 disables it).
    ///   - levelDifferenceWeight: Weight of the level-difference cue (0 disables it).
    ///   - detectionStrengthWeight: Weight of the detection-strength cue (0 disables it).
    ///   - levelDifferenceScale: Level difference, in dB, that places a sound fully on one side.
    ///   - minimumCorrelationStrength: Minimum GCC-PHAT peak strength (0...1) for the time difference to count.
    ///   - minimumDetectionConfidence: Minimum detection probability (on the stronger channel) for an event to be
    ///     assigned at all.
    ///   - eventTypeSettings: Per-event-type overrides.
    public init(
        microphoneSpacing: Double, speedOfSound: Double = 343, ambiguityZone: Double,
        ambiguityResolution: AmbiguityResolution = .both, timeDifferenceWeight: Double,
        levelDifferenceWeight: Double, detectionStrengthWeight: Double, levelDifferenceScale: Double,
        minimumCorrelationStrength: Double = 0.15, minimumDetectionConfidence: Double = 0.5,
        eventTypeSettings: [EventType: EventTypeSettings] = [:]
    ) {
        self.microphoneSpacing = microphoneSpacing
        self.speedOfSound = speedOfSound
        self.ambiguityZone = ambiguityZone
        self.ambiguityResolution = ambiguityResolution
        self.timeDifferenceWeight = timeDifferenceWeight
        self.levelDifferenceWeight = levelDifferenceWeight
        self.detectionStrengthWeight = detectionStrengthWeight
        self.levelDifferenceScale = levelDifferenceScale
        self.minimumCorrelationStrength = minimumCorrelationStrength
        self.minimumDetectionConfidence = minimumDetectionConfidence
        self.eventTypeSettings = eventTypeSettings
    }

    /// Two microphones 1–2 m apart, one on each bedside table (the default). Time and level differences are
    /// both large, so both count.
    public static let bedSideMics = ChannelSeparationConfig(
        microphoneSpacing: 1.5, ambiguityZone: 0.15, timeDifferenceWeight: 1, levelDifferenceWeight: 1,
        detectionStrengthWeight: 0.5, levelDifferenceScale: 6)

    /// A closely spaced pair (5–15 cm) between the sleepers: level differences are small, so the time
    /// difference carries the decision.
    public static let centeredMicArray = ChannelSeparationConfig(
        microphoneSpacing: 0.1, ambiguityZone: 0.2, timeDifferenceWeight: 1, levelDifferenceWeight: 0.25,
        detectionStrengthWeight: 0.25, levelDifferenceScale: 3)

    /// No spatial filtering: each event goes to the channel where it was detected more strongly.
    ///
    /// - Parameters:
    ///   - ambiguityZone: Relative strength difference below which the event is ambiguous.
    ///   - ambiguityResolution: What to do with an ambiguous event.
    /// - Returns: A configuration with only the detection-strength cue.
    public static func detectionStrengthOnly(
        ambiguityZone: Double = 0.1, ambiguityResolution: AmbiguityResolution = .both
    ) -> ChannelSeparationConfig {
        ChannelSeparationConfig(
            microphoneSpacing: 0, ambiguityZone: ambiguityZone, ambiguityResolution: ambiguityResolution,
            timeDifferenceWeight: 0, levelDifferenceWeight: 0, detectionStrengthWeight: 1, levelDifferenceScale: 6)
    }

    /// The settings in force for `type`: the general ones with its overrides applied.
    package func resolved(
        for type: EventType
    ) -> (zone: Double, resolution: AmbiguityResolution, minimumConfidence: Double) {
        let overrides = eventTypeSettings[type]
        return (
            overrides?.ambiguityZone ?? ambiguityZone, overrides?.ambiguityResolution ?? ambiguityResolution,
            overrides?.minimumDetectionConfidence ?? minimumDetectionConfidence
        )
    }

    /// Checks that the parameters make sense.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` naming the first bad parameter.
    package func validate() throws {
        func fail(_ why: String) throws { throw SleepCycleSdkError.invalidConfiguration("channel separation: \(why)") }
        if !(microphoneSpacing >= 0 && microphoneSpacing < 20) { try fail("microphoneSpacing must be 0...20 m") }
        if !(speedOfSound > 100 && speedOfSound < 2000) { try fail("speedOfSound must be 100...2000 m/s") }
        if !(0...1).contains(ambiguityZone) { try fail("ambiguityZone must be 0...1") }
        let weights = [timeDifferenceWeight, levelDifferenceWeight, detectionStrengthWeight]
        if weights.contains(where: { !($0 >= 0) || !$0.isFinite }) { try fail("weights must be finite and ≥ 0") }
        if weights.allSatisfy({ $0 == 0 }) { try fail("at least one cue needs a positive weight") }
        if timeDifferenceWeight > 0 && microphoneSpacing <= 0 {
            try fail("the time-difference cue needs a positive microphoneSpacing")
        }
        if !(levelDifferenceScale > 0) { try fail("levelDifferenceScale must be positive") }
        if !(0...1).contains(minimumCorrelationStrength) { try fail("minimumCorrelationStrength must be 0...1") }
        if !(0...1).contains(minimumDetectionConfidence) { try fail("minimumDetectionConfidence must be 0...1") }
        for (type, settings) in eventTypeSettings {
            if let zone = settings.ambiguityZone, !(0...1).contains(zone) { try fail("ambiguityZone of \(type)") }
            if let confidence = settings.minimumDetectionConfidence, !(0...1).contains(confidence) {
                try fail("minimumDetectionConfidence of \(type)")
            }
        }
    }
}

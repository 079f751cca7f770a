import Foundation

/// What the two channels say about one event: where it came from and how strongly each channel detected it.
package struct EventStereoCues: Sendable, Hashable {
    /// Inter-channel time difference in seconds (positive: the sound reached the primary microphone first), nil
    /// when it could not be measured.
    package var timeDifference: Double?
    /// Strength of the GCC-PHAT peak behind `timeDifference`, 0...1.
    var correlationStrength: Double = 0
    /// Level difference in dB, primary minus secondary, nil when unmeasured.
    package var levelDifference: Double?
    /// The event's detection probability on the primary channel.
    package var primaryProbability: Double
    /// The event's detection probability on the secondary channel.
    package var secondaryProbability: Double
}

/// Which sleeper an event belongs to.
package enum ChannelAssignment: String, Sendable, Hashable, Codable {
    /// The sleeper at the primary microphone.
    case primary
    /// The sleeper at the secondary microphone.
    case secondary
    /// Both (ambiguous, resolved as both).
    case both
    /// Neither (ambiguous, resolved as neither; or too weak).
    case neither

    /// Whether the event goes to `channel`'s session.
    func includes(_ channel: AnalysisChannel) -> Bool {
        switch self {
        case .both: true
        case .neither: false
        case .primary: channel == .primary
        case .secondary: channel == .secondary
        }
    }
}

import Foundation

/// The kind of a detected event.
///
/// Standard types are reported with the `audioEvents` feature (snoring also needs `snoringDetection`);
/// extended types only with `extendedAudioEvents`.
public enum EventType: String, Sendable, Hashable, Codable, CodingKeyRepresentable, CaseIterable,
    CustomStringConvertible
{
    /// Body movement, from the accelerometer or from movement sounds.
    case movement
    /// Snoring.
    case snoring
    /// Talking (sleep talking).
    case talking
    /// Coughing.
    case coughing
    /// Bird song.
    case bird
    /// A cat.
    case cat
    /// Digestive sounds.
    case digestive
    /// A dog.
    case dog
    /// Flatulence.
    case fart
    /// Music.
    case music
    /// Sneezing.
    case sneeze
    /// Throat clearing.
    case throatClearing
    /// Road traffic.
    case traffic
    /// Running or dripping water.
    case water
    /// Wind.
    case wind

    /// The standard set: movement, snoring, talking and coughing.
    public static let standardTypes: Set<EventType> = [.movement, .snoring, .talking, .coughing]

    /// The extended set, reported only with the `extendedAudioEvents` feature.
    public static let extendedTypes: Set<EventType> = [
        .bird, .cat, .digestive, .dog, .fart, .music, .sneeze, .throatClearing, .traffic, .water, .wind,
    ]

    /// The case name, as used in JSON and manifests.
    public var description: String { rawValue }
}

/// The sensor that detected an event.
public enum EventSource: String, Sendable, Hashable, Codable {
    /// Detected in the microphone signal.
    case audio
    /// Detected in the accelerometer signal.
    case accelerometer
}

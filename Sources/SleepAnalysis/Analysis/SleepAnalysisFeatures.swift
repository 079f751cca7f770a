import Foundation

/// The capabilities a licence grants.
public struct SleepAnalysisFeatures: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Whole-night sleep staging.
    public var sleepStaging: Bool
    /// The smart alarm.
    public var smartAlarm: Bool
    /// Standard audio events.
    public var audioEvents: Bool
    /// Snoring detection.
    public var snoringDetection: Bool
    /// Real-time sleep staging on `sleepStageStream`.
    public var realTimeSleepStaging: Bool
    /// Two-channel (stereo, two sleepers) analysis.
    public var multiChannelAnalysis: Bool
    /// Extended audio event types.
    public var extendedAudioEvents: Bool

    /// Creates a feature set; every feature is off unless given.
    ///
    /// - Parameters:
    ///   - sleepStaging: Whole-night sleep staging.
    ///   - smartAlarm: The smart alarm.
    ///   - audioEvents: Standard audio events.
    ///   - snoringDetection: Snoring detection.
    ///   - realTimeSleepStaging: Real-time sleep staging on `sleepStageStream`.
    ///   - multiChannelAnalysis: Two-channel (stereo, two sleepers) analysis.
    ///   - extendedAudioEvents: Extended audio event types.
    public init(
        sleepStaging: Bool = false, smartAlarm: Bool = false, audioEvents: Bool = false,
        snoringDetection: Bool = false, realTimeSleepStaging: Bool = false, multiChannelAnalysis: Bool = false,
        extendedAudioEvents: Bool = false
    ) {
        self.sleepStaging = sleepStaging
        self.smartAlarm = smartAlarm
        self.audioEvents = audioEvents
        self.snoringDetection = snoringDetection
        self.realTimeSleepStaging = realTimeSleepStaging
        self.multiChannelAnalysis = multiChannelAnalysis
        self.extendedAudioEvents = extendedAudioEvents
    }

    /// Every feature on.
    public static let all = SleepAnalysisFeatures(
        sleepStaging: true, smartAlarm: true, audioEvents: true, snoringDetection: true,
        realTimeSleepStaging: true, multiChannelAnalysis: true, extendedAudioEvents: true)

    /// Every feature off.
    public static let none = SleepAnalysisFeatures()

    /// The names of the features, as written in licence keys.
    public static let featureNames: [String] = [
        "sleepStaging", "smartAlarm", "audioEvents", "snoringDetection", "realTimeSleepStaging",
        "multiChannelAnalysis", "extendedAudioEvents",
    ]

    /// Creates a feature set from feature names; unknown names are returned in `unknown`.
    ///
    /// - Parameters:
    ///   - names: Feature names (`featureNames`).
    ///   - unknown: Receives the names that are not features.
    public init(names: [String], unknown: inout [String]) {
        self.init()
        for name in names {
            switch name {
            case "sleepStaging": sleepStaging = true
            case "smartAlarm": smartAlarm = true
            case "audioEvents": audioEvents = true
            case "snoringDetection": snoringDetection = true
            case "realTimeSleepStaging": realTimeSleepStaging = true
            case "multiChannelAnalysis": multiChannelAnalysis = true
            case "extendedAudioEvents": extendedAudioEvents = true
            default: unknown.append(name)
            }
        }
    }

    /// The names of the features that are on.
    public var enabledNames: [String] {
        let flags = [
            sleepStaging, smartAlarm, audioEvents, snoringDetection, realTimeSleepStaging, multiChannelAnalysis,
            extendedAudioEvents,
        ]
        return zip(Self.featureNames, flags).filter { $0.1 }.map { $0.0 }
    }

    /// The enabled features, comma-separated.
    public var description: String { "[" + enabledNames.joined(separator: ", ") + "]" }
}

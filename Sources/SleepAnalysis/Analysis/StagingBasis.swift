import Foundation

/// Which inputs staged a night, and whether staging from them has been validated against polysomnography.
///
/// Only the wrist-actigraphy and heart-rate modes are validated (leave-one-subject-out on the Walch et al. Apple
/// Watch nights; figures in the staging model card). Sound-only staging, and staging from the time of night
/// alone, have no labelled data here: their stages are plausible, not measured.
public struct StagingBasis: Sendable, Hashable, Codable {
    /// The inputs that staged most of the night's epochs.
    public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
        /// Movement (accelerometer or actigraphy counts) and heart rate.
        case activityAndHeartRate
        /// Movement alone (accelerometer or actigraphy counts).
        case activity
        /// Heart rate alone.
        case heartRate
        /// Heart rate, with movement sounds standing in for measured movement.
        case soundAndHeartRate
        /// Sound alone: movement sounds and snoring.
        case soundOnly
        /// No input: the time of night and the usual order of stages.
        case timeOnly
    }

    /// The inputs that staged most of the night's epochs.
    public var mode: Mode
    /// Whether staging from these inputs was validated against polysomnography on real nights.
    public var isValidated: Bool

    /// The basis of a mode, with its validation status.
    ///
    /// - Parameter mode: The inputs that staged the night.
    public init(mode: Mode) {
        self.mode = mode
        switch mode {
        case .activityAndHeartRate, .activity, .heartRate: isValidated = true
        case .soundAndHeartRate, .soundOnly, .timeOnly: isValidated = false
        }
    }

    /// A phrase for reports: "sound only (not validated against polysomnography)".
    public var summary: String {
        let inputs =
            switch mode {
            case .activityAndHeartRate: "movement and heart rate"
            case .activity: "movement"
            case .heartRate: "heart rate"
            case .soundAndHeartRate: "heart rate and movement sounds"
            case .soundOnly: "sound only"
            case .timeOnly: "time of night only"
            }
        return inputs
            + (isValidated
                ? " (validated on wrist actigraphy against polysomnography)"
                : " (not validated against polysomnography)")
    }
}

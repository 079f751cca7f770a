import Foundation

/// Which sensor inputs a staging model variant reads. Time since the session began is always used.
package enum StagingInputs: String, Sendable, Hashable, Codable, CaseIterable {
    /// Activity counts and heart rate (a wrist wearable).
    case activityAndHeartRate
    /// Activity counts only (a phone on the mattress, an actigraph; also the audio movement surrogate).
    case activity
    /// Heart rate only.
    case heartRate

    /// True when the variant reads activity.
    package var usesActivity: Bool { self != .heartRate }
    /// True when the variant reads heart rate.
    package var usesHeartRate: Bool { self != .activity }

    /// The variant for the inputs at hand, nil when neither activity nor heart rate is available.
    ///
    /// - Parameters:
    ///   - hasActivity: activity counts are available.
    ///   - hasHeartRate: heart rate is available.
    /// - Returns: the matching variant, or nil.
    package static func matching(hasActivity: Bool, hasHeartRate: Bool) -> StagingInputs? {
        switch (hasActivity, hasHeartRate) {
        case (true, true): .activityAndHeartRate
        case (true, false): .activity
        case (false, true): .heartRate
        case (false, false): nil
        }
    }
}

/// Whether a prediction may look ahead: causal (real time, past epochs only) or the whole night.
package enum StagingContext: String, Sendable, Hashable, Codable, CaseIterable {
    /// Only the current and earlier epochs; normalisation uses the night so far.
    case causal
    /// The whole night: centred and look-ahead windows, normalisation over the night.
    case wholeNight
}

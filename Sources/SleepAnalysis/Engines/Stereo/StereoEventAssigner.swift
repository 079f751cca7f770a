import Foundation

/// Assigns an event heard on a stereo source to a sleeper, following a `ChannelSeparationConfig`.
struct StereoEventAssigner: Sendable {
    /// The rules.
    let config: ChannelSeparationConfig

    /// The event's position from −1 (secondary microphone) to +1 (primary microphone): the weighted mean of the
    /// cues that could be measured; 0 when none could.
    func position(of cues: EventStereoCues) -> Double {
        var weighted = 0.0
        var weights = 0.0
        let maximumDelay = config.microphoneSpacing / config.speedOfSound
        if config.timeDifferenceWeight > 0, maximumDelay > 0, let delay = cues.timeDifference,
            cues.correlationStrength >= config.minimumCorrelationStrength
        {
            weighted += config.timeDifferenceWeight * clamp(delay / maximumDelay)
            weights += config.timeDifferenceWeight
        }
        if config.levelDifferenceWeight > 0, let level = cues.levelDifference, level.isFinite {
            weighted += config.levelDifferenceWeight * clamp(level / config.levelDifferenceScale)
            weights += config.levelDifferenceWeight
        }
        let strongest = max(cues.primaryProbability, cues.secondaryProbability)
        if config.detectionStrengthWeight > 0, strongest > 0 {
            let strength = (cues.primaryProbability - cues.secondaryProbability) / strongest
            weighted += config.detectionStrengthWeight * clamp(strength)
            weights += config.detectionStrengthWeight
        }
        return weights > 0 ? weighted / weights : 0
    }

    /// The sleeper (or sleepers) an event of `type` belongs to.
    func assign(_ type: EventType, cues: EventStereoCues) -> ChannelAssignment {
        let rules = config.resolved(for: type)
        guard max(cues.primaryProbability, cues.secondaryProbability) >= rules.minimumConfidence else {
            return .neither
        }
        let position = position(of: cues)
        if abs(position) > rules.zone { return position > 0 ? .primary : .secondary }
        switch rules.resolution {
        case .both: return .both
        case .neither: return .neither
        case .stronger:
            if position == 0 {
                return cues.primaryProbability >= cues.secondaryProbability ? .primary : .secondary
            }
            return position > 0 ? .primary : .secondary
        }
    }

    private func clamp(_ value: Double) -> Double { min(1, max(-1, value)) }
}

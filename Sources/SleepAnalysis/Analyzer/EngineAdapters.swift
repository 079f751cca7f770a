import Foundation

// The engines' conformances to the pipeline's protocols. Where an engine's own API already matches, the
// conformance is all there is.

extension EventDetectorOutput {
    /// Nothing found.
    package static var empty: EventDetectorOutput { EventDetectorOutput(probabilities: [:], started: [], ended: []) }
}

extension EventDetector: AudioEventsEngine {}

extension BreathingRateEstimator: BreathingEngine {}

extension SmartAlarmEngine: SmartAlarmDriver {}

extension AudioHealthMonitor: AudioHealthEngine {}

import Foundation
import SleepAnalysis

/// A stand-in for one channel's events detector in the stereo evaluation: it reports the scene's true events
/// with a detection probability that follows the event's signal-to-noise ratio on its channel, so the
/// evaluation measures the spatial assignment alone, not the detector.
///
/// The probability is a logistic in the event's SNR over the channel's room tone (`0.5` at
/// `halfProbabilitySnr` dB, `snrSlope` dB per e-fold), as a detector is surer of a louder sound; an event under
/// 0.5 is not reported on that channel.
final class GroundTruthEventsEngine: AudioEventsEngine {
    /// SNR (dB) at which the stand-in detector is 50 % sure.
    static let halfProbabilitySnr = 10.0
    /// dB per e-fold of the logistic.
    static let snrSlope = 4.0

    private struct Pending {
        var event: Event
        var reported = false
    }

    private var events: [Pending]

    /// Creates the engine for one channel.
    ///
    /// - Parameters:
    ///   - events: The true events (intervals and types) with this channel's SNR in dB.
    ///   - sessionId: The id the events carry.
    init(events: [(type: EventType, interval: DateInterval, snr: Double)], sessionId: UUID) {
        self.events = events.map { truth in
            let probability = 1 / (1 + exp(-(truth.snr - Self.halfProbabilitySnr) / Self.snrSlope))
            return Pending(
                event: Event(
                    type: truth.type, interval: truth.interval, probability: probability, source: .audio,
                    sessionId: sessionId))
        }
    }

    func process(_ batch: AudioBatch) -> EventDetectorOutput {
        var output = EventDetectorOutput.empty
        for index in events.indices {
            let event = events[index].event
            if event.interval.start < batch.endTime && event.interval.end > batch.startTime {
                output.probabilities[event.type] = max(
                    output.probabilities[event.type] ?? 0, Float(event.probability))
            }
            if !events[index].reported && event.interval.end <= batch.endTime {
                events[index].reported = true
                if event.probability >= 0.5 { output.ended.append(event) }
            }
        }
        return output
    }

    func finish() -> EventDetectorOutput {
        var output = EventDetectorOutput.empty
        for index in events.indices where !events[index].reported {
            events[index].reported = true
            if events[index].event.probability >= 0.5 { output.ended.append(events[index].event) }
        }
        return output
    }
}

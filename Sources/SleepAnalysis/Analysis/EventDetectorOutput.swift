import Foundation

/// What the event detector found in one batch of audio (or at the end of the stream).
package struct EventDetectorOutput: Sendable {
    /// Each event type's highest window probability in the batch (0 for disabled types and for types the
    /// model cannot detect).
    package var probabilities: [EventType: Float]
    /// Events that opened in the batch.
    package var started: [EventStartedInfo]
    /// Events that closed in the batch: complete, source `.audio`, snoring with its signature.
    package var ended: [Event]

    /// Creates an output.
    ///
    /// - Parameters:
    ///   - probabilities: Each event type's highest window probability in the batch (0 for disabled types and for types
    ///     the model cannot detect).
    ///   - started: Events that opened in the batch.
    ///   - ended: Events that closed in the batch: complete, source `.audio`, snoring with its signature.
    package init(probabilities: [EventType: Float], started: [EventStartedInfo], ended: [Event]) {
        self.probabilities = probabilities
        self.started = started
        self.ended = ended
    }
}

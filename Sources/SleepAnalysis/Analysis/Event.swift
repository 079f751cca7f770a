import Foundation

/// A detected event: its kind, when it happened, how sure the detector is, and which sensor saw it.
public struct Event: Sendable, Hashable, Codable {
    /// The kind of event.
    public var type: EventType
    /// When the event started and ended.
    public var interval: DateInterval
    /// Confidence of the detection, 0...1.
    public var probability: Double
    /// The sensor that detected the event.
    public var source: EventSource
    /// The session the event belongs to.
    public var sessionId: UUID
    /// For snoring: 16 values describing the snorer's sound; snores of one person cluster together.
    public var signature: [Float]?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - type: The kind of event.
    ///   - interval: When the event started and ended.
    ///   - probability: Confidence of the detection, 0...1.
    ///   - source: The sensor that detected the event.
    ///   - sessionId: The session the event belongs to.
    ///   - signature: For snoring: 16 values describing the snorer's sound; snores of one person cluster together.
    public init(
        type: EventType, interval: DateInterval, probability: Double, source: EventSource, sessionId: UUID,
        signature: [Float]? = nil
    ) {
        self.type = type
        self.interval = interval
        self.probability = probability
        self.source = source
        self.sessionId = sessionId
        self.signature = signature
    }
}

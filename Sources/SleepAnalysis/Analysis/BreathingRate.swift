import Foundation

/// A breathing-rate measurement.
public struct BreathingRate: Sendable, Hashable, Codable {
    /// When the measurement was made (the end of the analysed window).
    public var timestamp: Date
    /// Breaths per minute.
    public var bpm: Double
    /// Confidence of the measurement, 0...1.
    public var confidence: Double
    /// The session the measurement belongs to.
    public var sessionId: UUID

    /// Creates a measurement.
    ///
    /// - Parameters:
    ///   - timestamp: When the measurement was made (the end of the analysed window).
    ///   - bpm: Breaths per minute.
    ///   - confidence: Confidence of the measurement, 0...1.
    ///   - sessionId: The session the measurement belongs to.
    public init(timestamp: Date, bpm: Double, confidence: Double, sessionId: UUID) {
        self.timestamp = timestamp
        self.bpm = bpm
        self.confidence = confidence
        self.sessionId = sessionId
    }
}

import Foundation

/// Gathers what is observed during the current 30-second epoch of a session.
struct EpochAccumulator {
    /// Epoch length in seconds.
    static let epochLength: TimeInterval = 30

    private(set) var interval: DateInterval
    private var levelSum = 0.0
    private var levelSquares = 0.0
    private var levelCount = 0
    private var heartRates: [Double] = []
    private var snoringSeconds = 0.0
    private var movementCount = 0
    private var soundEventCount = 0
    /// Seconds of data (audio or motion) seen in the epoch.
    private(set) var coveredSeconds = 0.0

    /// The probability at which each event type counts as present in a batch (the on-thresholds of the events
    /// model in use; replaced when the detector switches models).
    var thresholds: EventPresence

    /// Starts the epoch beginning at `start`.
    init(start: Date, presence: EventPresence) {
        interval = DateInterval(start: start, duration: Self.epochLength)
        thresholds = presence
    }

    /// Adds one audio batch's figures.
    mutating func addAudio(dbSpl: [Float], seconds: Double, probabilities: [EventType: Float]) {
        for level in dbSpl where level.isFinite {
            levelSum += Double(level)
            levelSquares += Double(level) * Double(level)
            levelCount += 1
        }
        coveredSeconds += seconds
        if thresholds.isPresent(.snoring, in: probabilities) { snoringSeconds += seconds }
        if thresholds.isPresent(.movement, in: probabilities) { movementCount += 1 }
        let otherSound = probabilities.keys.contains { type in
            type != .snoring && type != .movement && thresholds.isPresent(type, in: probabilities)
        }
        if otherSound { soundEventCount += 1 }
    }

    /// Adds movement events seen by the accelerometer.
    mutating func addMovementEvents(_ count: Int) { movementCount += count }

    /// Adds heart-rate readings.
    mutating func addHeartRates(_ values: [Double]) { heartRates.append(contentsOf: values) }

    /// Counts seconds of motion data when the session has no audio.
    mutating func addMotionCoverage(seconds: Double) { coveredSeconds += seconds }

    /// The observation of the finished epoch.
    func observation(activity: Double?, breathing: BreathingRate?) -> EpochObservation {
        var observation = EpochObservation(interval: interval)
        observation.activity = activity
        observation.heartRates = heartRates
        observation.snoringSeconds = snoringSeconds
        observation.movementEventCount = movementCount
        observation.soundEventCount = soundEventCount
        if levelCount > 0 {
            let mean = levelSum / Double(levelCount)
            observation.meanDbSpl = mean
            observation.dbSplDeviation = max(0, levelSquares / Double(levelCount) - mean * mean).squareRoot()
        }
        observation.breathingRate = breathing?.bpm
        observation.breathingConfidence = breathing?.confidence
        return observation
    }
}

/// When an event type counts as present in a batch: its probability reaches the events model's on-threshold for the
/// type (0.5 for a type the model gives none).
struct EventPresence: Sendable {
    /// On-thresholds by type.
    var onThresholds: [EventType: Float] = [:]

    /// Whether `type` is present in a batch with these probabilities.
    func isPresent(_ type: EventType, in probabilities: [EventType: Float]) -> Bool {
        guard let probability = probabilities[type] else { return false }
        return probability >= (onThresholds[type] ?? 0.5)
    }
}

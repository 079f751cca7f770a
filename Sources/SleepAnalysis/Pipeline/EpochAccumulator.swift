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

    /// Starts the epoch beginning at `start`.
    init(start: Date) {
        interval = DateInterval(start: start, duration: Self.epochLength)
    }

    /// Adds one audio batch's figures.
    mutating func addAudio(dbSpl: [Float], seconds: Double, probabilities: [EventType: Float]) {
        for level in dbSpl where level.isFinite {
            levelSum += Double(level)
            levelSquares += Double(level) * Double(level)
            levelCount += 1
        }
        coveredSeconds += seconds
        if (probabilities[.snoring] ?? 0) >= 0.5 { snoringSeconds += seconds }
        if (probabilities[.movement] ?? 0) >= 0.5 { movementCount += 1 }
        let otherSound = probabilities.contains { type, p in type != .snoring && type != .movement && p >= 0.5 }
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

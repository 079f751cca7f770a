import Foundation

/// Detects body movements in raw accelerometer samples and reports them as `.movement` events from the
/// `.accelerometer` source.
///
/// The magnitude is band-passed 0.25–3 Hz (as for activity counts) and its mean absolute value taken per
/// second. A second is active when that level exceeds `relativeThreshold` × the noise floor and `absoluteThreshold`
/// g. The noise floor is the median level of the last `floorSeconds` quiet seconds: a median, because one quiet
/// second's level is itself noisy (at 10 Hz it averages only ten samples), and a floor that follows the quietest
/// second down puts the threshold within reach of ordinary noise. Active seconds no more than
/// `maximumGap` seconds apart form one movement; its probability grows with how far the peak level rose above
/// the threshold (0.5 at the threshold, towards 1 at four times it). Because the threshold is relative to the
/// device's own noise floor, a phone on the mattress and a wrist device both detect movements.
package struct AccelerometerMovementDetector: Sendable {
    /// The session the events belong to.
    package let sessionId: UUID
    /// Level above the noise floor, as a factor, that marks a moving second.
    package let relativeThreshold: Double
    /// Smallest level, in g, that can mark a moving second.
    package let absoluteThreshold: Double
    /// Largest quiet gap, in seconds, inside one movement.
    package let maximumGap: TimeInterval
    /// How many of the latest quiet seconds the noise floor is the median of.
    package static let floorSeconds = 60

    private var filter: MagnitudeBandPass?
    private var rateEstimator = AccelerometerRateEstimator()
    private var secondStart: Date?
    private var secondSum = 0.0
    private var secondCount = 0
    private var quietLevels: [Double] = []
    private var nextQuietSlot = 0
    private var movementStart: Date?
    private var movementEnd: Date?
    private var movementPeak = 0.0
    private var movementThreshold = 0.0

    /// Creates a detector.
    ///
    /// - Parameters:
    ///   - sessionId: the session the events belong to.
    ///   - sampleRate: samples per second, or nil to estimate it from the timestamps (`AccelerometerRateEstimator`).
    ///   - relativeThreshold: factor over the noise floor (default 4).
    ///   - absoluteThreshold: minimum level in g (default 0.0005 g).
    ///   - maximumGap: largest quiet gap inside a movement, seconds (default 2).
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a non-positive rate or threshold.
    package init(
        sessionId: UUID, sampleRate: Double? = nil, relativeThreshold: Double = 4, absoluteThreshold: Double = 0.0005,
        maximumGap: TimeInterval = 2
    ) throws {
        if let sampleRate, !(sampleRate.isFinite && sampleRate > 0) {
            throw SleepCycleSdkError.invalidConfiguration("accelerometer sample rate must be positive")
        }
        guard relativeThreshold > 1, absoluteThreshold > 0, maximumGap >= 0 else {
            throw SleepCycleSdkError.invalidConfiguration("movement thresholds must be positive (relative above 1)")
        }
        self.sessionId = sessionId
        self.relativeThreshold = relativeThreshold
        self.absoluteThreshold = absoluteThreshold
        self.maximumGap = maximumGap
        if let sampleRate { filter = MagnitudeBandPass(sampleRate: sampleRate) }
    }

    /// Adds samples (in time order) and returns the movements that ended.
    ///
    /// - Parameter samples: accelerometer readings, in g.
    /// - Returns: completed movement events.
    package mutating func add(_ samples: [AccelerometerSample]) -> [Event] {
        guard filter == nil else { return samples.flatMap { process($0) } }
        guard let estimate = rateEstimator.add(samples) else { return [] }
        filter = MagnitudeBandPass(sampleRate: estimate.rate)
        return estimate.samples.flatMap { process($0) }
    }

    /// Ends the input and returns the movement still open, if any.
    ///
    /// - Returns: the last movement event, or nothing.
    package mutating func finish() -> [Event] {
        var events: [Event] = []
        if filter == nil, let estimate = rateEstimator.finish() {
            filter = MagnitudeBandPass(sampleRate: estimate.rate)
            events += estimate.samples.flatMap { process($0) }
        }
        if let start = secondStart {
            events += closeSecond(start: start)
            secondStart = nil
        }
        if let event = closeMovement() { events.append(event) }
        return events
    }

    private mutating func process(_ sample: AccelerometerSample) -> [Event] {
        guard var filter else { return [] }
        let magnitude = (sample.x * sample.x + sample.y * sample.y + sample.z * sample.z).squareRoot()
        guard magnitude.isFinite else { return [] }
        let level = abs(filter.process(magnitude))
        self.filter = filter
        var events: [Event] = []
        if let start = secondStart, sample.timestamp.timeIntervalSince(start) >= 1 {
            events += closeSecond(start: start)
            secondStart = nil
        }
        if secondStart == nil { secondStart = sample.timestamp }
        secondSum += level
        secondCount += 1
        return events
    }

    /// Classifies the second that just ended; returns a movement that ended before it.
    private mutating func closeSecond(start: Date) -> [Event] {
        let level = secondCount > 0 ? secondSum / Double(secondCount) : 0
        secondSum = 0
        secondCount = 0
        let floor = quietLevels.isEmpty ? level : median(quietLevels)
        let threshold = max(absoluteThreshold, relativeThreshold * floor)
        var events: [Event] = []
        if level > threshold {
            if let end = movementEnd, start.timeIntervalSince(end) > maximumGap, let event = closeMovement() {
                events.append(event)
            }
            if movementStart == nil {
                movementStart = start
                movementThreshold = threshold
            }
            movementEnd = start.addingTimeInterval(1)
            movementPeak = max(movementPeak, level)
        } else {
            rememberQuiet(level)
            if let end = movementEnd, start.timeIntervalSince(end) >= maximumGap, let event = closeMovement() {
                events.append(event)
            }
        }
        return events
    }

    /// Keeps a quiet second's level among the latest `floorSeconds` (a ring).
    private mutating func rememberQuiet(_ level: Double) {
        if quietLevels.count < Self.floorSeconds {
            quietLevels.append(level)
        } else {
            quietLevels[nextQuietSlot] = level
        }
        nextQuietSlot = (nextQuietSlot + 1) % Self.floorSeconds
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : 0.5 * (sorted[middle - 1] + sorted[middle])
    }

    private mutating func closeMovement() -> Event? {
        guard let start = movementStart, let end = movementEnd else { return nil }
        let ratio = movementPeak / max(movementThreshold, .leastNonzeroMagnitude)
        let probability = min(1, max(0.5, 0.5 + (ratio - 1) / 6))
        movementStart = nil
        movementEnd = nil
        movementPeak = 0
        return Event(
            type: .movement, interval: DateInterval(start: start, end: end), probability: probability,
            source: .accelerometer, sessionId: sessionId)
    }
}

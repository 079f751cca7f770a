import Foundation

/// The pipeline's motion engine: movement events from an `AccelerometerMovementDetector`, per-epoch activity
/// counts from an `ActivityCounter` (or a device's own counts, which win when both exist).
final class AccelerometerMotionEngine: MotionEngine {
    private var counter: ActivityCounter
    private var detector: AccelerometerMovementDetector
    private var counts: [Int: Double] = [:]
    private var deviceCounts: [Int: Double] = [:]
    private let sessionStart: Date

    /// Creates the engine of one session.
    ///
    /// - Parameters:
    ///   - sessionId: the session (events carry it).
    ///   - sessionStart: the start of the session's 30-second epoch grid.
    ///   - sampleRate: the accelerometer's rate, or nil to estimate it from timestamps.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a non-positive rate.
    init(sessionId: UUID, sessionStart: Date, sampleRate: Double? = nil) throws {
        self.sessionStart = sessionStart
        counter = try ActivityCounter(sessionStart: sessionStart, sampleRate: sampleRate)
        detector = try AccelerometerMovementDetector(sessionId: sessionId, sampleRate: sampleRate)
    }

    func process(_ samples: [AccelerometerSample]) -> [Event] {
        counter.add(samples)
        return detector.add(samples)
    }

    func process(activityCounts: [ActivityCountSample]) {
        for sample in activityCounts where sample.activityCount.isFinite {
            guard let epoch = epochIndex(sample.timestamp) else { continue }
            deviceCounts[epoch, default: 0] += max(0, sample.activityCount)
        }
    }

    func activity(in epoch: DateInterval) -> Double? {
        for sample in counter.closeEpochs(through: epoch.end) {
            if let index = epochIndex(sample.timestamp) { counts[index] = sample.activityCount }
        }
        guard let index = epochIndex(epoch.start) else { return nil }
        let value = deviceCounts.removeValue(forKey: index) ?? counts[index]
        counts.removeValue(forKey: index)
        return value
    }

    func finish() -> [Event] {
        detector.finish()
    }

    private func epochIndex(_ time: Date) -> Int? {
        let offset = time.timeIntervalSince(sessionStart)
        guard offset.isFinite, offset >= -0.001 else { return nil }
        return Int((offset / EpochFeatures.duration + 1e-6).rounded(.down))
    }
}

import Foundation

/// Collects sensor data into 30-second `EpochFeatures` on a grid that starts at the session start, and hands
/// out each epoch once the data's time has passed its end (so a replay gives the same epochs as live input).
///
/// Accelerometer samples become activity counts through an `ActivityCounter`; device activity counts are used
/// as they are (when both exist for one epoch, the device count wins). Heart-rate readings are summarised per
/// epoch. Audio cues are set per epoch by the audio engines. Data for an epoch already handed out is dropped.
public struct EpochAssembler: Sendable {
    /// The start of the first epoch.
    public let sessionStart: Date

    private var counter: ActivityCounter
    private var deviceCounts: [Int: Double] = [:]
    private var accelerometerCounts: [Int: Double] = [:]
    private var heartRate: [Int: [Double]] = [:]
    private var audio: [Int: AudioEpochCues] = [:]
    private var nextEpoch = 0

    /// Creates an assembler.
    ///
    /// - Parameters:
    ///   - sessionStart: the start of the first epoch.
    ///   - accelerometerSampleRate: the accelerometer's rate, or nil to estimate it.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a non-positive sample rate.
    public init(sessionStart: Date, accelerometerSampleRate: Double? = nil) throws {
        self.sessionStart = sessionStart
        counter = try ActivityCounter(sessionStart: sessionStart, sampleRate: accelerometerSampleRate)
    }

    /// Adds raw accelerometer samples.
    public mutating func add(accelerometer samples: [AccelerometerSample]) {
        counter.add(samples)
    }

    /// Adds epoch-level activity counts from a device (each counted in the epoch its timestamp falls in).
    public mutating func add(activityCounts samples: [ActivityCountSample]) {
        for sample in samples {
            guard let epoch = epochIndex(sample.timestamp), epoch >= nextEpoch, sample.activityCount.isFinite else {
                continue
            }
            deviceCounts[epoch, default: 0] += max(0, sample.activityCount)
        }
    }

    /// Adds heart-rate readings.
    public mutating func add(heartRate samples: [HeartRateSample]) {
        for sample in samples {
            guard let epoch = epochIndex(sample.timestamp), epoch >= nextEpoch else { continue }
            heartRate[epoch, default: []].append(sample.bpm)
        }
    }

    /// Sets the audio cues of the epoch that contains `time`.
    public mutating func setAudioCues(_ cues: AudioEpochCues, at time: Date) {
        guard let epoch = epochIndex(time), epoch >= nextEpoch else { return }
        audio[epoch] = cues
    }

    /// Hands out every epoch that ends at or before `time`, oldest first (empty epochs included).
    ///
    /// - Parameter time: the data's current time.
    /// - Returns: the epochs closed by this call.
    public mutating func closeEpochs(through time: Date) -> [EpochFeatures] {
        for sample in counter.closeEpochs(through: time) {
            if let epoch = epochIndex(sample.timestamp) { accelerometerCounts[epoch] = sample.activityCount }
        }
        let last = Int((time.timeIntervalSince(sessionStart) / EpochFeatures.duration).rounded(.down)) - 1
        guard last >= nextEpoch else { return [] }
        var epochs: [EpochFeatures] = []
        for epoch in nextEpoch...last { epochs.append(take(epoch)) }
        nextEpoch = last + 1
        return epochs
    }

    /// Hands out the remaining epochs at the end of the input, up to the last one holding data.
    ///
    /// - Returns: the epochs, oldest first.
    public mutating func finish() -> [EpochFeatures] {
        for sample in counter.finish() {
            if let epoch = epochIndex(sample.timestamp) { accelerometerCounts[epoch] = sample.activityCount }
        }
        let keys = Array(deviceCounts.keys) + Array(accelerometerCounts.keys) + Array(heartRate.keys)
            + Array(audio.keys)
        guard let last = keys.max(), last >= nextEpoch else { return [] }
        var epochs: [EpochFeatures] = []
        for epoch in nextEpoch...last { epochs.append(take(epoch)) }
        nextEpoch = last + 1
        return epochs
    }

    private mutating func take(_ epoch: Int) -> EpochFeatures {
        let start = sessionStart.addingTimeInterval(Double(epoch) * EpochFeatures.duration)
        let activity = deviceCounts.removeValue(forKey: epoch) ?? accelerometerCounts.removeValue(forKey: epoch)
        accelerometerCounts.removeValue(forKey: epoch)
        let stats = heartRate.removeValue(forKey: epoch).flatMap { HeartRateEpochStats(bpm: $0) }
        return EpochFeatures(start: start, activityCount: activity, heartRate: stats, audio: audio.removeValue(forKey: epoch))
    }

    private func epochIndex(_ time: Date) -> Int? {
        let offset = time.timeIntervalSince(sessionStart)
        guard offset >= 0, offset.isFinite else { return nil }
        return Int((offset / EpochFeatures.duration).rounded(.down))
    }
}

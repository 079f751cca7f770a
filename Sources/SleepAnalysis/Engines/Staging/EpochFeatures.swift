import Foundation

/// Everything the stager knows about one 30-second epoch; every input is optional.
///
/// The stager turns a night of these into model inputs itself (per-night normalisation, context windows),
/// so callers only summarise what each sensor saw inside the epoch.
package struct EpochFeatures: Sendable, Hashable, Codable {
    /// The length of an epoch, in seconds.
    package static let duration: TimeInterval = 30

    /// The start of the epoch.
    package var start: Date
    /// Activity count for the epoch (any device scale: the stager normalises per night), nil when unknown.
    package var activityCount: Double?
    /// Heart-rate summary for the epoch, nil without a wearable or without readings in the epoch.
    package var heartRate: HeartRateEpochStats?
    /// Audio cues for the epoch, nil when audio is not analysed.
    package var audio: AudioEpochCues?

    /// Creates an epoch.
    ///
    /// - Parameters:
    ///   - start: the start of the epoch.
    ///   - activityCount: the epoch's activity count, if an accelerometer or actigraph gave one.
    ///   - heartRate: the epoch's heart-rate summary, if a wearable gave readings.
    ///   - audio: the epoch's audio cues, if audio is analysed.
    package init(
        start: Date, activityCount: Double? = nil, heartRate: HeartRateEpochStats? = nil, audio: AudioEpochCues? = nil
    ) {
        self.start = start
        self.activityCount = activityCount
        self.heartRate = heartRate
        self.audio = audio
    }

    /// The epoch as a time interval.
    package var interval: DateInterval { DateInterval(start: start, duration: Self.duration) }
}

/// Heart-rate readings inside one epoch, summarised.
package struct HeartRateEpochStats: Sendable, Hashable, Codable {
    /// Mean beats per minute.
    package var meanBpm: Double
    /// Standard deviation of the readings (0 for a single reading).
    package var standardDeviation: Double
    /// Number of readings.
    package var sampleCount: Int

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - meanBpm: Mean beats per minute.
    ///   - standardDeviation: Standard deviation of the readings (0 for a single reading).
    ///   - sampleCount: Number of readings.
    package init(meanBpm: Double, standardDeviation: Double, sampleCount: Int) {
        self.meanBpm = meanBpm
        self.standardDeviation = standardDeviation
        self.sampleCount = sampleCount
    }

    /// Summarises readings; nil when there is no plausible reading (`HeartRateSample.plausibleBpm`).
    ///
    /// - Parameter bpm: the readings that fall inside the epoch.
    /// - Returns: the summary, or nil.
    package init?(bpm: [Double]) {
        let valid = bpm.filter { HeartRateSample.plausibleBpm.contains($0) }
        guard !valid.isEmpty else { return nil }
        let mean = valid.reduce(0, +) / Double(valid.count)
        let variance = valid.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(valid.count)
        self.init(meanBpm: mean, standardDeviation: variance.squareRoot(), sampleCount: valid.count)
    }
}

/// What the audio engines heard during one epoch. Every cue is optional.
package struct AudioEpochCues: Sendable, Hashable, Codable {
    /// Fraction of the epoch covered by snoring, 0...1.
    package var snoringFraction: Double?
    /// Number of movement sounds (rustling, turning over) in the epoch.
    package var movementSoundCount: Int?
    /// Mean A-weighted sound level, dB SPL.
    package var meanDbA: Double?
    /// Breathing rate, breaths per minute.
    package var breathingRate: Double?
    /// Regularity of breathing, 0 (erratic) ... 1 (metronomic).
    package var breathingRegularity: Double?

    /// Creates audio cues.
    ///
    /// - Parameters:
    ///   - snoringFraction: Fraction of the epoch covered by snoring, 0...1.
    ///   - movementSoundCount: Number of movement sounds (rustling, turning over) in the epoch.
    ///   - meanDbA: Mean A-weighted sound level, dB SPL.
    ///   - breathingRate: Breathing rate, breaths per minute.
    ///   - breathingRegularity: Regularity of breathing, 0 (erratic) ... 1 (metronomic).
    package init(
        snoringFraction: Double? = nil, movementSoundCount: Int? = nil, meanDbA: Double? = nil,
        breathingRate: Double? = nil, breathingRegularity: Double? = nil
    ) {
        self.snoringFraction = snoringFraction
        self.movementSoundCount = movementSoundCount
        self.meanDbA = meanDbA
        self.breathingRate = breathingRate
        self.breathingRegularity = breathingRegularity
    }
}

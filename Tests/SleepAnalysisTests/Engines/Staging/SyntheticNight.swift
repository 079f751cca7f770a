import Foundation
import SleepAnalysis

/// A deterministic synthetic night for stager tests: an hour of restless wake, quiet sleep with slow heart
/// rate, brief movements, and restless wake at the end.
enum SyntheticNight {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// `count` epochs; `activityScale` multiplies every activity count (a device's scale).
    static func epochs(
        count: Int = 300, activityScale: Double = 1, heartRate: Bool = true, audio: Bool = false
    ) -> [EpochFeatures] {
        var generator = LinearCongruential(seed: 42)
        return (0..<count).map { index in
            let awake = index < 40 || index > count - 20 || (index % 97 > 90)
            let base = awake ? 40.0 : (index % 13 == 0 ? 8 : 0.5)
            let activity = base * (0.5 + generator.next()) * activityScale
            let bpm = (awake ? 72.0 : 56 + 6 * sin(Double(index) / 15)) + 2 * generator.next()
            let cues =
                audio
                ? AudioEpochCues(
                    snoringFraction: awake ? 0 : (index % 5 == 0 ? 0.4 : 0), movementSoundCount: awake ? 3 : 0,
                    meanDbA: awake ? 38 : 31) : nil
            return EpochFeatures(
                start: start.addingTimeInterval(Double(index) * 30), activityCount: activity,
                heartRate: heartRate ? HeartRateEpochStats(meanBpm: bpm, standardDeviation: 1.5, sampleCount: 6) : nil,
                audio: cues)
        }
    }
}

/// A tiny deterministic pseudo-random generator (values in 0..<1).
struct LinearCongruential {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
}

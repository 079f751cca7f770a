import Foundation
import SleepAnalysis

/// The staging modes on composed nights: per mode, the per-night outcomes and their pooled figures.
///
/// Composed nights test whether the sound and accelerometer modes stage plausibly when sounds and movements
/// follow the stages by stated rules; they are not validation on real nights.
package struct ComposedStagingEvaluation: Sendable, Codable {
    /// The inputs a mode gives the SDK.
    package enum Inputs: String, Sendable, Codable, CaseIterable {
        /// The composed audio alone.
        case sound
        /// The composed accelerometer (phone on the mattress) alone.
        case accelerometer
        /// Both.
        case soundAndAccelerometer
        /// Whether the mode uses the audio.
        package var usesAudio: Bool { self != .accelerometer }
        /// Whether the mode uses the accelerometer.
        package var usesAccelerometer: Bool { self != .sound }
    }

    /// One mode's figures.
    package struct Mode: Sendable, Codable {
        /// The inputs.
        package var inputs: Inputs
        /// Whole-night agreement, all nights' epochs pooled.
        package var wholeNight: StagingMetrics
        /// Real-time agreement, pooled.
        package var realTime: StagingMetrics
        /// Nights with deep sleep within 15 minutes after the staged onset (whole night, real time).
        package var deepWithin15MinutesNights: [String: Int]
        /// Of those, the nights whose hypnogram has no deep sleep within 15 minutes of its own onset: the early deep
        /// sleep is the stager's (whole night, real time).
        package var deepWithin15MinutesUnscoredNights: [String: Int]
        /// Nights whose hypnogram itself has deep sleep within 15 minutes of its onset.
        package var scoredDeepWithin15MinutesNights: Int
        /// Mean over nights of the share of snoring epochs staged asleep (whole night).
        package var snoringStagedAsleep: Double?
        /// Mean over nights of the share of moving-awake epochs staged awake (whole night).
        package var movingWakeStagedAwake: Double?
        /// Nights whose result says the audio was band-limited (`AnalysisWarning.Kind.bandLimitedAudio`: the events
        /// detector ran its band-limited model).
        package var bandLimitedAudioNights: Int
        /// Per night.
        package var nights: [ComposedNightOutcome]

        /// Pools the nights of a mode.
        ///
        /// - Parameters:
        ///   - inputs: The mode's inputs.
        ///   - nights: Its outcome on each night.
        package init(inputs: Inputs, nights: [ComposedNightOutcome]) {
            self.inputs = inputs
            self.nights = nights
            wholeNight = StagingMetrics(pairs: nights.flatMap(\.pairs.wholeNight))
            realTime = StagingMetrics(pairs: nights.flatMap(\.pairs.realTime))
            deepWithin15MinutesNights = [
                "wholeNight": nights.filter(\.wholeNight.deepWithin15MinutesOfOnset).count,
                "realTime": nights.filter(\.realTime.deepWithin15MinutesOfOnset).count,
            ]
            let scoredEarly = { (night: ComposedNightOutcome) in
                (night.scoredFirstDeepMinutesAfterOnset ?? .infinity) < 15
            }
            deepWithin15MinutesUnscoredNights = [
                "wholeNight": nights.filter { $0.wholeNight.deepWithin15MinutesOfOnset && !scoredEarly($0) }.count,
                "realTime": nights.filter { $0.realTime.deepWithin15MinutesOfOnset && !scoredEarly($0) }.count,
            ]
            scoredDeepWithin15MinutesNights = nights.filter(scoredEarly).count
            func mean(_ values: [Double?]) -> Double? {
                let present = values.compactMap { $0 }
                return present.isEmpty ? nil : present.reduce(0, +) / Double(present.count)
            }
            snoringStagedAsleep = mean(nights.map(\.wholeNight.snoringStagedAsleep))
            movingWakeStagedAwake = mean(nights.map(\.wholeNight.movingWakeStagedAwake))
            bandLimitedAudioNights = nights.filter(\.bandLimitedAudio).count
        }
    }

    /// What the nights were composed from.
    package var hours: Double
    /// The band limit the composed audio was put through (`EventBandLimit`'s name), or "full band".
    package var audio: String
    /// Per mode.
    package var modes: [Mode]
    /// Heart rate is not composed: no rule ties a heart-rate stream to stages well enough to stand in for it.
    package var heartRate = "not composed"

    /// Collects the modes.
    ///
    /// - Parameters:
    ///   - hours: The length of each night.
    ///   - modes: The modes.
    ///   - bandLimit: The band limit of the composed audio (nil: full band).
    package init(hours: Double, modes: [Mode], bandLimit: EventBandLimit? = nil) {
        self.hours = hours
        audio = bandLimit?.rawValue ?? "full band"
        self.modes = modes
    }
}

import Foundation

/// Something about the input that lowers the result's worth without stopping the analysis: it is reported in the
/// result instead of being passed over in silence.
public struct AnalysisWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of problem the input had.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The audio's sample rate is below the 16 kHz the detectors were trained at.
        case lowSampleRate
        /// The audio holds (almost) nothing above 4 kHz: it was band-limited, e.g. resampled from 8 kHz.
        case bandLimitedAudio
        /// Some samples were NaN or infinite; each was replaced by silence and `count` says how many.
        case nonFiniteSamples
        /// Samples were clipped at full scale (the microphone's gain is too high); `count` says how many (reported
        /// from 100 samples on).
        case clippedAudio
        /// Heart-rate readings outside `HeartRateSample.plausibleBpm` (a wearable's glitches) were left out of the
        /// staging; `count` says how many.
        case implausibleHeartRates
        /// Sensor readings were given but none lies within the recorded audio; `count` says how many were given.
        case sensorReadingsOutsideRecording
        /// Sensor readings had the time of the reading before them (rows written twice, many readings at one
        /// instant); `count` says how many.
        case duplicateSensorReadings
        /// The audio file's header gave another length than the audio it holds; the audio held was analysed, and
        /// `count` says how many frames it holds.
        case audioLengthDiffersFromHeader
        /// The microphone gave no signal (every sample NaN, or a flat line: dead, muted or unplugged) for the whole
        /// recording: nothing could be heard, so nothing was staged or scored from sound.
        case noAudioSignal
    }

    /// What kind of problem the input had.
    public var kind: Kind
    /// What happened and what it costs, for people.
    public var message: String
    /// How many samples or readings it concerns, where that is counted.
    public var count: Int?

    /// Creates a warning.
    ///
    /// - Parameters:
    ///   - kind: What kind of problem the input had.
    ///   - message: What happened and what it costs, for people.
    ///   - count: How many samples or readings it concerns, where that is counted.
    public init(kind: Kind, message: String, count: Int? = nil) {
        self.kind = kind
        self.message = message
        self.count = count
    }

    /// The message.
    public var description: String { message }
}

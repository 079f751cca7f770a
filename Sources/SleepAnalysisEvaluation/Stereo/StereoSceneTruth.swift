import Foundation
import SleepAnalysis

/// The ground truth of a composed two-sleeper stereo scene (`Tools/stereo/compose_scenes.py` writes it beside
/// the scene's WAV as `<scene>.json`).
public struct StereoSceneTruth: Sendable, Codable {
    /// One sound made by one sleeper.
    public struct TruthEvent: Sendable, Codable {
        /// When the sound starts at the nearer microphone, seconds from the scene's start.
        public var start: Double
        /// When it ends, seconds from the scene's start.
        public var end: Double
        /// The sleeper who made it: `primary` (near channel 0) or `secondary` (near channel 1).
        public var owner: AnalysisChannel
        /// Its kind.
        public var type: EventType
        /// The path difference over the speed of sound, seconds (> 0: the primary microphone hears it first).
        public var expectedDelay: Double
        /// The direct paths' level difference, dB, primary minus secondary.
        public var expectedLevelDifference: Double
    }

    /// `bedside` or `centered`.
    public var geometry: String
    /// The microphones' distance, metres.
    public var microphoneSpacing: Double
    /// The sounds, in time order.
    public var events: [TruthEvent]

    /// Reads a truth file.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when it is missing or malformed.
    public static func load(from url: URL) throws -> StereoSceneTruth {
        do {
            return try JSONDecoder().decode(StereoSceneTruth.self, from: Data(contentsOf: url))
        } catch {
            throw SleepCycleSdkError.invalidInput("\(url.path): not a stereo scene truth file (\(error))")
        }
    }
}

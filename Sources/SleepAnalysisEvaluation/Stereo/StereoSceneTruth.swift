import Foundation
import SleepAnalysis

/// The ground truth of a composed two-sleeper stereo scene (`Tools/stereo/compose_scenes.py` writes it beside
/// the scene's WAV as `<scene>.json`).
package struct StereoSceneTruth: Sendable, Codable {
    /// One sound made by one sleeper.
    package struct TruthEvent: Sendable, Codable {
        /// When the sound starts at the nearer microphone, seconds from the scene's start.
        package var start: Double
        /// When it ends, seconds from the scene's start.
        package var end: Double
        /// The sleeper who made it: `primary` (near channel 0) or `secondary` (near channel 1).
        package var owner: AnalysisChannel
        /// Its kind.
        package var type: EventType
        /// The path difference over the speed of sound, seconds (> 0: the primary microphone hears it first).
        package var expectedDelay: Double
        /// The direct paths' level difference, dB, primary minus secondary.
        package var expectedLevelDifference: Double
    }

    /// `bedside` or `centered`.
    package var geometry: String
    /// The microphones' distance, metres.
    package var microphoneSpacing: Double
    /// The sounds, in time order.
    package var events: [TruthEvent]

    /// Reads a truth file.
    ///
    /// - Throws: `SleepCycleSdkError.invalidInput` when it is missing or malformed.
    package static func load(from url: URL) throws -> StereoSceneTruth {
        do {
            return try JSONDecoder().decode(StereoSceneTruth.self, from: Data(contentsOf: url))
        } catch {
            throw SleepCycleSdkError.invalidInput("\(url.path): not a stereo scene truth file (\(error))")
        }
    }
}

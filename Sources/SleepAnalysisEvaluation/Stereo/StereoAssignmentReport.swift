import Foundation
import SleepAnalysis

/// The stereo assignment figures of one channel separation over a set of composed scenes.
package struct StereoAssignmentReport: Sendable, Codable {
    /// The preset's name.
    package var preset: String
    /// The scenes' geometry (`bedside`, `centered`, or `mixed`).
    package var geometry: String
    /// Scenes evaluated.
    package var scenes: Int
    /// True events in them.
    package var events: Int
    /// Events the detector stand-in reported on at least one channel.
    package var detected: Int
    /// Detected events given to at least one sleeper.
    package var assigned: Int
    /// Detected events outside the ambiguity zone (decided by the cues).
    package var outsideZone: Int
    /// Share of those given to the right sleeper (and only to them).
    package var accuracyOutsideZone: Double
    /// Share of detected events inside the ambiguity zone (decided by the configured resolution).
    package var shareInsideZone: Double
    /// Share of detected events too weak to assign (minimum detection confidence).
    package var shareBelowConfidence: Double
    /// Share of detected events given to the right sleeper alone, whatever the zone.
    package var overallAccuracy: Double
    /// Counts by true owner, then assignment (`primary`, `secondary`, `both`, `neither`).
    package var confusion: [String: [String: Int]]
    /// Mean absolute error of the measured time difference, milliseconds (events where it was measured).
    package var meanTimeDifferenceErrorMs: Double?
    /// Mean absolute error of the measured level difference against the direct paths', dB.
    package var meanLevelDifferenceErrorDb: Double?

    /// Summarises outcomes.
    ///
    /// - Parameters:
    ///   - outcomes: Every event's outcome.
    ///   - preset: The preset's name.
    ///   - geometry: The scenes' geometry.
    ///   - scenes: How many scenes the outcomes come from.
    package init(outcomes: [StereoEventOutcome], preset: String, geometry: String, scenes: Int) {
        self.preset = preset
        self.geometry = geometry
        self.scenes = scenes
        events = outcomes.count
        let detectedOutcomes = outcomes.filter(\.detected)
        detected = detectedOutcomes.count
        assigned = detectedOutcomes.filter { $0.assignment != ChannelAssignment.neither.rawValue }.count
        let outside = detectedOutcomes.filter { !$0.insideAmbiguityZone && !$0.belowConfidence }
        outsideZone = outside.count
        accuracyOutsideZone = Self.share(outside.filter(Self.isCorrect).count, of: outside.count)
        shareInsideZone = Self.share(detectedOutcomes.filter(\.insideAmbiguityZone).count, of: detected)
        shareBelowConfidence = Self.share(detectedOutcomes.filter(\.belowConfidence).count, of: detected)
        overallAccuracy = Self.share(detectedOutcomes.filter(Self.isCorrect).count, of: detected)
        var confusion: [String: [String: Int]] = [:]
        for owner in AnalysisChannel.allCases {
            var row: [String: Int] = [:]
            for assignment in ["primary", "secondary", "both", "neither"] {
                row[assignment] = detectedOutcomes.filter { $0.owner == owner && $0.assignment == assignment }.count
            }
            confusion[owner.rawValue] = row
        }
        self.confusion = confusion
        let delayErrors = detectedOutcomes.compactMap { outcome in
            outcome.measuredDelay.map { abs($0 - outcome.expectedDelay) * 1000 }
        }
        meanTimeDifferenceErrorMs = delayErrors.isEmpty ? nil : delayErrors.reduce(0, +) / Double(delayErrors.count)
        let levelErrors = detectedOutcomes.compactMap { outcome in
            outcome.measuredLevelDifference.map { abs($0 - outcome.expectedLevelDifference) }
        }
        meanLevelDifferenceErrorDb = levelErrors.isEmpty ? nil : levelErrors.reduce(0, +) / Double(levelErrors.count)
    }

    private static func isCorrect(_ outcome: StereoEventOutcome) -> Bool {
        outcome.assignment == outcome.owner.rawValue
    }

    private static func share(_ count: Int, of total: Int) -> Double {
        total > 0 ? Double(count) / Double(total) : 0
    }
}

import Foundation

/// How far to trust a night's figures (`AnalysisResult.confidence`), as labelled lines for the text report and the
/// night report's card (`NightReportCards.confidence`).
package enum ConfidenceCard {
    /// The ranges of total sleep, efficiency and stage minutes, the mean probability of the chosen stages, the
    /// breathing coverage; none when the result has no confidence.
    ///
    /// - Parameter result: The session's result.
    /// - Returns: The lines, in reading order.
    package static func facts(_ result: AnalysisResult) -> [NightReportFact] {
        guard let confidence = result.confidence else { return [] }
        let level = String(format: "%.0f %%", confidence.level * 100)
        var facts: [NightReportFact] = []
        if let sleep = confidence.totalSleepMinutes {
            facts.append(NightReportFact("Total sleep range", "\(minutes(sleep)) (\(level) range)"))
        }
        if let efficiency = confidence.sleepEfficiency {
            facts.append(
                NightReportFact(
                    "Efficiency range",
                    String(format: "%.0f–%.0f %%", efficiency.lower * 100, efficiency.upper * 100)))
        }
        if let stages = confidence.stageMinutes {
            let parts = [("awake", stages.awake), ("light", stages.light), ("deep", stages.deep), ("rem", stages.rem)]
            facts.append(
                NightReportFact("Stage ranges", parts.map { "\($0.0) \(minutes($0.1))" }.joined(separator: ", ")))
        }
        if let mean = confidence.meanStageConfidence {
            facts.append(
                NightReportFact(
                    "Stage certainty",
                    String(format: "%.0f %% mean probability of the stage shown (calibrated)", mean * 100)))
        }
        if let coverage = confidence.breathingCoverage {
            facts.append(
                NightReportFact(
                    "Breathing covered", String(format: "%.0f %% of the half-minutes have a rate", coverage * 100)))
        }
        return facts
    }

    /// `6 h 10 min – 6 h 55 min`.
    private static func minutes(_ range: ResultConfidence.Range) -> String {
        NightReportFacts.duration(range.lower * 60) + " – " + NightReportFacts.duration(range.upper * 60)
    }
}

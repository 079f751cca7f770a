import Foundation

/// How far to trust a night's figures (`AnalysisResult.confidence`), as labelled lines for the text report and as
/// one small card of the HTML night report.
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

    /// The card: a section with the lines of `facts` and what they mean; empty when there are none.
    ///
    /// - Parameters:
    ///   - result: The session's result.
    ///   - id: The section's id (already escaped).
    /// - Returns: The section's markup.
    static func html(_ result: AnalysisResult, id: String) -> String {
        let facts = facts(result)
        guard !facts.isEmpty else { return "" }
        let rows = facts.map {
            "<tr><th>\(HTMLEscaping.escape($0.label))</th><td>\(HTMLEscaping.escape($0.value))</td></tr>\n"
        }
        let validated = result.stagingBasis?.isValidated ?? false
        let note =
            validated
            ? "Ranges from the calibrated stage probabilities: a wide range means the stages were uncertain."
            : "Ranges from the stage probabilities; these inputs are not validated, so the ranges are not either."
        return "<section id=\"\(id)\" class=\"confidence\">\n<h2>How far to trust these figures</h2>\n<table>\n"
            + rows.joined() + "</table>\n<p class=\"note\">\(HTMLEscaping.escape(note))</p>\n</section>\n\n"
    }

    /// `6 h 10 min – 6 h 55 min`.
    private static func minutes(_ range: ResultConfidence.Range) -> String {
        NightReportFacts.duration(range.lower * 60) + " – " + NightReportFacts.duration(range.upper * 60)
    }
}

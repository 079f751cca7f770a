import Foundation

extension NightReportCards {
    /// How far to trust the night's figures (`AnalysisResult.confidence`): the ranges of total sleep, efficiency
    /// and stage minutes, the mean probability of the stage shown and the breathing coverage; nil when the result
    /// has none of them.
    static func confidence(_ context: NightReportContext) -> NightReportCard? {
        let facts = ConfidenceCard.facts(context.result)
        guard !facts.isEmpty else { return nil }
        let validated = context.result.stagingBasis?.isValidated ?? false
        let note =
            validated
            ? "Ranges from the calibrated stage probabilities: a wide range means the stages were uncertain."
            : "Ranges from the stage probabilities; these inputs are not validated, so the ranges are not either."
        let body =
            ReportTable.facts(facts.map { ($0.label, $0.value) }, caption: "how far to trust the night's figures")
            + "<p class=\"note\">\(HTMLEscaping.escape(note))</p>\n"
        return NightReportCard(id: "confidence", title: "How far to trust these figures", body: body)
    }
}

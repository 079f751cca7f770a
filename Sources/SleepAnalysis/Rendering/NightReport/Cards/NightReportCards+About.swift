import Foundation

extension NightReportCards {
    /// How the night was measured, last: what staged it (and whether that is validated), whether the input was
    /// clean, and what the sound level means.
    static func about(_ context: NightReportContext) -> NightReportCard? {
        let result = context.result
        var items: [String] = []
        if let basis = result.stagingBasis {
            var text = "Staged from \(basis.summary)."
            if !basis.isValidated { text += " Stages from these inputs are plausible, not measured: an estimate." }
            items.append(text)
        } else {
            items.append("Not staged: \(NightReportFacts.notStagedReason).")
        }
        let health = result.audioStatistics?.healthIntervals ?? []
        if !health.isEmpty && health.allSatisfy({ $0.status == .healthy }) {
            items.append("The microphone was healthy throughout.")
        }
        if result.warnings.isEmpty { items.append("No input warnings: the input was clean.") }
        if let timeline = context.night.soundLevel, !timeline.minutes.isEmpty {
            items.append(
                timeline.calibration.map {
                    String(format: "Sound levels are calibrated (dB SPL = dBFS + %.1f dB).", $0.offsetDb)
                } ?? "Sound levels are relative and uncalibrated.")
        }
        let notice = result.stagingBasis.map { !$0.isValidated } ?? true
        return NightReportCard(
            id: "about", title: "How this night was measured",
            body: "<ul>\n" + items.map { "<li>\(HTMLEscaping.escape($0))</li>\n" }.joined() + "</ul>\n",
            className: notice ? "method notice" : "method")
    }
}

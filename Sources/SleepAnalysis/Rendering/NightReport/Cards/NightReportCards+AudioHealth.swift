import Foundation

extension NightReportCards {
    /// What went wrong with the input, when anything did: stretches the microphone was silent or absent, and the
    /// input's warnings. A clean night has no such card (the last card says it was clean).
    static func audioHealth(_ context: NightReportContext) -> NightReportCard? {
        let result = context.result
        let problems = (result.audioStatistics?.healthIntervals ?? []).filter { $0.status != .healthy }
        guard !problems.isEmpty || !result.warnings.isEmpty else { return nil }
        var body = ""
        if !problems.isEmpty {
            body += ReportTable.html(
                caption: "microphone problems", columns: ["Problem", "From", "To", "Duration"],
                rows: problems.map {
                    [
                        $0.status.rawValue, context.clock($0.interval.start), context.clock($0.interval.end),
                        ReportText.span($0.interval.duration),
                    ]
                }, rowHeaders: false, collapsed: false)
        }
        if !result.warnings.isEmpty {
            body +=
                "<ul>\n" + result.warnings.map { "<li>\(HTMLEscaping.escape($0.message))</li>\n" }.joined() + "</ul>\n"
        }
        return NightReportCard(id: "audio-health", title: "Input problems", body: body, className: "notice")
    }
}

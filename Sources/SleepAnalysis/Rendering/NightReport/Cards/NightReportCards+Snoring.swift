import Foundation

extension NightReportCards {
    /// Snoring, when the night had any: how many snores, for how long, in how many sessions, and the sessions.
    static func snoring(_ context: NightReportContext) -> NightReportCard? {
        let result = context.result
        let snores = result.events.filter { $0.type == .snoring }
        guard !snores.isEmpty else { return nil }
        let sessions = result.statistics?.snoreSessions ?? []
        var text = ReportText.count(snores.count, "snoring event")
        if let time = result.statistics?.snoreTime {
            text += "; \(ReportText.span(time)) of snoring"
            if !sessions.isEmpty { text += " in \(ReportText.count(sessions.count, "session"))" }
        }
        var body = "<p>\(HTMLEscaping.escape(text)).</p>\n"
        if !sessions.isEmpty {
            body += ReportTable.html(
                caption: "snoring sessions", columns: ["From", "To", "Snores", "Snoring time"],
                rows: sessions.map {
                    [
                        context.clock($0.interval.start), context.clock($0.interval.end), String($0.eventCount),
                        ReportText.span($0.snoreDuration),
                    ]
                }, collapsed: false)
        }
        return NightReportCard(id: "snoring", title: "Snoring", body: body)
    }
}

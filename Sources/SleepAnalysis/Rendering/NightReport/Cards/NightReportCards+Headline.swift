import Foundation

extension NightReportCards {
    /// The night at a glance, first on the page: the sleep score (or why there is none), total sleep, efficiency,
    /// time in bed, when sleep began, and a bar of the share of the night in each stage with its legend.
    static func headline(_ context: NightReportContext) -> NightReportCard? {
        let result = context.result
        var body = "<div class=\"glance\">\n" + scoreBlock(context) + figures(context) + "</div>\n"
        if let bar = StageShareBar(result) { body += bar.html }
        return NightReportCard(id: "headline", title: "At a glance", body: body, className: "headline")
    }

    private static func scoreBlock(_ context: NightReportContext) -> String {
        guard let score = context.night.score else {
            let reason = context.result.scoreUnavailableReason ?? .notStaged
            return "<div class=\"score\">\n<p class=\"score-missing\">No score: "
                + "\(HTMLEscaping.escape(reason.message)).</p>\n</div>\n"
        }
        let parts = String(
            format: "duration %.0f, quality %.0f, routine %.0f (each out of 100)", score.duration * 100,
            score.quality * 100, score.routine * 100)
        return """
            <div class="score">
            <p class="score-value"><span class="score-number">\(String(format: "%.0f", score.total * 100))</span>\
            <span class="score-unit"> / 100</span></p>
            <p class="score-label">Sleep score: \(HTMLEscaping.escape(parts))</p>
            </div>

            """
    }

    private static func figures(_ context: NightReportContext) -> String {
        let result = context.result
        var items: [(String, String, String?)] = []
        if let stats = result.statistics {
            items.append(("Total sleep", ReportText.duration(stats.totalSleepDuration), nil))
            items.append(("Efficiency", ReportText.percent(stats.sleepEfficiency), "of the time in bed asleep"))
            items.append(("Time in bed", ReportText.duration(stats.timeInBed ?? result.duration), nil))
            if let latency = stats.sleepOnsetLatency {
                items.append(
                    (
                        "Fell asleep", context.clock(result.startTime.addingTimeInterval(latency)),
                        "\(ReportText.duration(latency)) after going to bed"
                    ))
            } else {
                items.append(("Fell asleep", "–", "no sleep found"))
            }
        } else {
            items.append(("Time in bed", ReportText.duration(result.duration), nil))
            items.append(("Sleep stages", "not staged", NightReportFacts.notStagedReason))
        }
        return "<dl class=\"figures\">\n"
            + items.map { label, value, note in
                "<div><dt>\(HTMLEscaping.escape(label))</dt><dd>\(HTMLEscaping.escape(value))"
                    + (note.map { "<small>\(HTMLEscaping.escape($0))</small>" } ?? "") + "</dd></div>\n"
            }.joined() + "</dl>\n"
    }
}

extension AnalysisResult {
    /// Seconds from the session's start to its end.
    var duration: Double { max(0, endTime.timeIntervalSince(startTime)) }
}

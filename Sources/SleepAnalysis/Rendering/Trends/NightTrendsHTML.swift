import Foundation

/// A person's nights over weeks as a self-contained HTML page: the last night against the person's own baseline,
/// the averages and how regular the sleep midpoint is, a chart per figure (total sleep, efficiency, score, snoring
/// time, breathing rate, sleep midpoint), each with its table, and every night in one table.
///
/// Like `NightReportHTML`, the page has its style sheet and pictures inline and nothing to fetch or run, reads at
/// phone width and prints. `sleepanalysis report --store DIR --out trends.html` writes one.
///
/// ```swift
/// let store = try SessionStore(readingFrom: directory)
/// let (results, _) = try store.readableResults(in: DateInterval(start: fourWeeksAgo, end: now))
/// let html = NightTrendsHTML.render(NightTrends(results: results))
/// try Data(html.utf8).write(to: URL(fileURLWithPath: "trends.html"))
/// ```
public enum NightTrendsHTML {
    /// The HTML document of `trends`.
    ///
    /// - Parameters:
    ///   - trends: The nights.
    ///   - title: The page's heading; `Sleep over 14 nights` by default.
    /// - Returns: A complete HTML5 document.
    public static func render(_ trends: NightTrends, title: String? = nil) -> String {
        let heading = title ?? "Sleep over \(ReportText.count(trends.nights.count, "night"))"
        var html = ReportDocument.start(title: heading)
        guard let first = trends.nights.first, let last = trends.lastNight else {
            html += "<p>No nights in this range.</p>\n"
            return html + ReportDocument.end
        }
        let zone = last.timeZone
        html += "<header id=\"summary\" class=\"night-header\"><p>"
        html += HTMLEscaping.escape(
            "\(ReportText.longDate(ReportText.nightDate(first.startTime, first.timeZone), first.timeZone)) to "
                + "\(ReportText.longDate(ReportText.nightDate(last.startTime, zone), zone)); times in "
                + ReportText.zone(zone, at: last.startTime))
        html += "</p></header>\n"
        html += section("last-night", "Last night against your baseline", lastNight(trends, last))
        html += section("averages", "Averages", averages(trends))
        for metric in TrendMetric.all {
            guard let chart = TrendChart.render(trends, metric: metric) else { continue }
            let rows = trends.nights.compactMap { night in
                night[keyPath: metric.figure].map { [date(night), metric.format($0)] }
            }
            var body = ReportFigure.html(
                chart, name: metric.title.lowercased(),
                caption: "<ul class=\"legend\"><li>\(StageColours.swatch(TrendChart.colour))a night (the last one "
                    + "ringed)</li><li>dashed line: the average</li></ul>")
            body += ReportTable.html(
                caption: metric.title.lowercased() + " by night", columns: ["Night", metric.title], rows: rows)
            html += section(metric.id, metric.title, body)
        }
        html += section("nights", "Every night", nightsTable(trends))
        return html + ReportDocument.end
    }

    private static func lastNight(_ trends: NightTrends, _ last: NightTrends.Night) -> String {
        let earlier = min(trends.nights.count - 1, NightTrends.baselineNights)
        var body = "<p>\(HTMLEscaping.escape(date(last))), against the \(ReportText.count(earlier, "night")) before "
        body += "it.</p>\n"
        let rows: [[String]] = TrendMetric.all.compactMap { metric in
            guard let value = last[keyPath: metric.figure] else { return nil }
            let baseline = trends.baseline(metric.figure)
            return [
                metric.title, metric.format(value), baseline.map(metric.format) ?? "–",
                baseline.map { metric.difference(value - $0) } ?? "–",
            ]
        }
        return body
            + ReportTable.html(
                caption: "last night and your baseline (the mean of the nights before)",
                columns: ["Figure", "Last night", "Your baseline", "Difference"], rows: rows, collapsed: false)
    }

    private static func averages(_ trends: NightTrends) -> String {
        var items: [(String, String, String?)] = TrendMetric.all.compactMap { metric in
            trends.average(metric.figure).map { (metric.title, metric.format($0), nil) }
        }
        if let regularity = trends.midpointRegularity {
            items.append(("Midpoint regularity", "± \(ReportText.duration(regularity * 60))", "standard deviation"))
        }
        return "<dl class=\"figures\">\n"
            + items.map { label, value, note in
                "<div><dt>\(HTMLEscaping.escape(label))</dt><dd>\(HTMLEscaping.escape(value))"
                    + (note.map { "<small>\(HTMLEscaping.escape($0))</small>" } ?? "") + "</dd></div>\n"
            }.joined() + "</dl>\n"
    }

    private static func nightsTable(_ trends: NightTrends) -> String {
        let rows = trends.nights.map { night in
            [
                date(night), ReportText.clock(night.startTime, night.timeZone),
                ReportText.clock(night.endTime, night.timeZone),
            ]
                + TrendMetric.all.map { metric in night[keyPath: metric.figure].map(metric.format) ?? "–" }
        }
        return ReportTable.html(
            caption: "every night in the range, earliest first",
            columns: ["Night", "In bed", "Up"] + TrendMetric.all.map(\.title), rows: rows, collapsed: false)
    }

    /// `Tue 1 Dec 2026`: the night's evening.
    private static func date(_ night: NightTrends.Night) -> String {
        let evening = ReportText.nightDate(night.startTime, night.timeZone)
        return ReportText.shortDate(evening, night.timeZone) + " " + ReportText.year(evening, night.timeZone)
    }

    private static func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\" aria-labelledby=\"\(id)-title\">\n<h2 id=\"\(id)-title\">\(HTMLEscaping.escape(title))</h2>\n"
            + body + "</section>\n\n"
    }
}

import Foundation

/// The page's headings and each night's header: the night's date written out, when it was spent in bed and in which
/// time zone, and the sleeper's name for the night when a page has several.
enum NightReportPage {
    /// The page's title and top heading: `Night of Tuesday 1 December 2026`, or the range of a page of several
    /// nights on different dates.
    static func title(_ nights: [NightReportHTML.Night]) -> String {
        let dates = nights.map { ReportText.longDate(nightDate($0.result), $0.result.timeZone) }
        guard let first = dates.first, let last = dates.last else { return "Night report" }
        return first == last ? "Night of \(first)" : "Nights of \(first) to \(last)"
    }

    /// The night's header: its own heading when the page has several, then when it was spent in bed.
    static func header(_ context: NightReportContext, heading: String?) -> String {
        let result = context.result
        let zone = context.zone
        var html = "<header id=\"\(context.id("summary"))\" class=\"night-header\">\n"
        if let heading {
            html += "<h\(context.headingLevel - 1)>\(HTMLEscaping.escape(heading))</h\(context.headingLevel - 1)>\n"
        }
        var times = "In bed \(context.clock(result.startTime)) – \(context.clock(result.endTime))"
        if ReportText.isoDate(result.startTime, zone) != ReportText.isoDate(result.endTime, zone) {
            times +=
                " (\(ReportText.shortDate(result.startTime, zone)) to \(ReportText.shortDate(result.endTime, zone)))"
        }
        times += ", \(ReportText.duration(result.duration)); times in \(ReportText.zone(zone, at: result.startTime))"
        return html + "<p>\(HTMLEscaping.escape(times))</p>\n</header>\n"
    }

    /// The evening the night belongs to.
    static func nightDate(_ result: AnalysisResult) -> Date {
        ReportText.nightDate(result.startTime, result.timeZone)
    }
}

import Foundation

/// The share of the night in each stage as one bar (awake, REM, light, deep from the left, in the stage colours),
/// with a legend giving each stage's time and share, and the same figures as a table.
struct StageShareBar {
    /// Seconds in each stage.
    let seconds: [SleepStage: Double]
    /// Their sum.
    let total: Double

    /// The bar of `result`'s stage durations; nil when the night was not staged.
    init?(_ result: AnalysisResult) {
        guard let durations = result.statistics?.sleepStageDurations else { return nil }
        let total = StageColours.order.reduce(0) { $0 + max(0, durations[$1] ?? 0) }
        guard total > 0 else { return nil }
        seconds = durations
        self.total = total
    }

    /// A stage's share of the night, 0...1.
    func share(_ stage: SleepStage) -> Double { max(0, seconds[stage] ?? 0) / total }

    /// `1 h 20 min, 18 %`.
    func text(_ stage: SleepStage) -> String {
        "\(ReportText.duration(seconds[stage] ?? 0)), \(ReportText.percent(share(stage)))"
    }

    /// The bar, its legend and its table.
    var html: String {
        let width = 960.0
        let height = 28.0
        let label =
            "Share of the night in each stage: "
            + StageColours.order.map { "\(StageColours.name($0)) \(ReportText.percent(share($0)))" }.joined(
                separator: ", ")
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" class="stage-bar" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" preserveAspectRatio="none" role="img" \
            aria-label="\(HTMLEscaping.escape(label))">

            """
        var x = 0.0
        for stage in StageColours.order where share(stage) > 0 {
            let segment = width * share(stage)
            svg += "<rect x=\"\(NightChartFrame.format(x))\" y=\"0\" width=\"\(NightChartFrame.format(segment))\" "
            svg += "height=\"\(Int(height))\" shape-rendering=\"crispEdges\" fill=\"\(StageColours.colour(stage))\"/>\n"
            x += segment
        }
        svg += "</svg>\n"
        let rows = StageColours.order.map {
            [StageColours.name($0), ReportText.duration(seconds[$0] ?? 0), ReportText.percent(share($0))]
        }
        return "<figure class=\"bar\">\n" + svg + "<figcaption>"
            + StageColours.legendHTML(Dictionary(uniqueKeysWithValues: StageColours.order.map { ($0, text($0)) }))
            + "</figcaption>\n</figure>\n"
            + ReportTable.html(caption: "time in each stage", columns: ["Stage", "Time", "Share"], rows: rows)
    }
}

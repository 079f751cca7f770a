import Foundation

extension NightReportCards {
    /// The breathing rate, when it was measured: its median and range, the line over the night, and a table of the
    /// median per stretch of the night.
    static func breathing(_ context: NightReportContext) -> NightReportCard? {
        let result = context.result
        let measured = result.breathingRates.filter { $0.bpm.isFinite }
        guard !measured.isEmpty else { return nil }
        let rates = measured.map(\.bpm).sorted()
        let text =
            String(
                format: "Median %.1f breaths per minute (from %.1f to %.1f; ", rates[rates.count / 2],
                rates.first ?? 0, rates.last ?? 0) + ReportText.count(rates.count, "measurement") + ")."
        let points = measured.map { NightLineChart.Point(time: $0.timestamp, value: $0.bpm) }
        let chart = NightLineChart(axisTitle: "breaths per minute", colour: StageColours.breathing)
            .render(points, over: result)
        var body = "<p>\(HTMLEscaping.escape(text))</p>\n"
        if let chart { body += ReportFigure.html(chart, name: "breathing rate") }
        body += ReportTable.html(
            caption: "breathing rate", columns: ["Time", "Median (breaths per minute)", "Measurements"],
            rows: stretches(of: points, over: result, context: context).map {
                [$0.label, String(format: "%.1f", $0.values.sorted()[$0.values.count / 2]), String($0.values.count)]
            })
        return NightReportCard(id: "breathing", title: "Breathing rate", body: body)
    }

    /// The points in each stretch of the night between two time ticks (`HypnogramTimeAxis`), the empty ones left
    /// out.
    static func stretches(
        of points: [NightLineChart.Point], over result: AnalysisResult, context: NightReportContext
    ) -> [(label: String, values: [Double])] {
        let step = Double(HypnogramTimeAxis.stepInMinutes(for: result.duration) * 60)
        var stretches: [(label: String, values: [Double])] = []
        var start = result.startTime
        while start < result.endTime {
            let end = min(result.endTime, start.addingTimeInterval(step))
            let values = points.filter { $0.time >= start && $0.time < end }.map(\.value)
            if !values.isEmpty { stretches.append(("\(context.clock(start))–\(context.clock(end))", values)) }
            start = end
        }
        return stretches
    }
}

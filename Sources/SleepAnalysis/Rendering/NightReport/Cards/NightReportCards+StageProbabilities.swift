import Foundation

extension NightReportCards {
    /// How sure the staging was: each 30-second epoch's stage probabilities as stacked columns in the stage colours,
    /// on the hypnogram's time scale, with the legend and a table of the mean probabilities per stretch of the night.
    static func stageProbabilities(_ context: NightReportContext) -> NightReportCard? {
        let result = context.result
        guard let chart = StageProbabilityChart.render(result) else { return nil }
        let step = Double(HypnogramTimeAxis.stepInMinutes(for: result.duration) * 60)
        var rows: [[String]] = []
        var start = result.startTime
        while start < result.endTime {
            let end = min(result.endTime, start.addingTimeInterval(step))
            let epochs = result.sleepStagePredictions.filter {
                $0.interval.start >= start && $0.interval.start < end
            }
            if !epochs.isEmpty {
                rows.append(
                    ["\(context.clock(start))–\(context.clock(end))"]
                        + StageColours.order.map { stage in
                            ReportText.percent(
                                epochs.reduce(0) { $0 + $1.probabilities[stage] } / Double(epochs.count))
                        })
            }
            start = end
        }
        let body =
            "<p class=\"note\">Each column is one 30-second epoch: how likely each stage was (deep at the bottom). "
            + "Mixed colours mark a stretch the staging was unsure of.</p>\n"
            + ReportFigure.html(chart, name: "stage probability", caption: StageColours.legendHTML())
            + ReportTable.html(
                caption: "mean stage probabilities", columns: ["Time"] + StageColours.order.map(StageColours.name),
                rows: rows)
        return NightReportCard(id: "stage-probabilities", title: "How sure the stages are", body: body)
    }
}

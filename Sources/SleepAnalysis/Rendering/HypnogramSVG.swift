import Foundation

/// Draws a night's hypnogram as an SVG picture in the report's palette (`StageColours`): stages as rows (awake at
/// the top, deep at the bottom), time along
/// the bottom with ticks every 5 minutes to 2 hours by the night's length (`HypnogramTimeAxis`) in the session's
/// time zone, snoring events as marks under the chart, axis labels and a legend of the colours.
public enum HypnogramSVG {
    /// The SVG document for `result` (whole-night staging, or the real-time stages when there is none).
    ///
    /// - Parameters:
    ///   - result: The session's result.
    ///   - width: Picture width in pixels.
    ///   - height: Picture height in pixels.
    /// - Returns: A standalone SVG document.
    public static func render(_ result: AnalysisResult, width: Int = 960, height: Int = 300) -> String {
        let intervals =
            result.sleepStageIntervals.isEmpty ? result.realTimeSleepStageIntervals : result.sleepStageIntervals
        let frame = NightChartFrame(result, width: width)
        let left = frame.left
        let right = frame.right
        let top = 30.0
        let bottom = Double(height) - 70
        let rows = StageColours.order
        let rowHeight = (bottom - top) / Double(rows.count)
        func x(_ date: Date) -> Double { frame.x(date) }
        func y(_ stage: SleepStage) -> Double { top + rowHeight * (Double(rows.firstIndex(of: stage) ?? 0) + 0.5) }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="18" font-size="14">Hypnogram \(escape(dateText(result.startTime, result.timeZone))) \
            – \(escape(dateText(result.endTime, result.timeZone)))</text>

            """
        for stage in rows {
            svg += "<text x=\"24\" y=\"\(format(y(stage) + 4))\">\(stage.rawValue)</text>\n"
            svg += "<line x1=\"\(format(left))\" x2=\"\(format(right))\" y1=\"\(format(y(stage)))\" "
            svg += "y2=\"\(format(y(stage)))\" stroke=\"#eeeeee\"/>\n"
        }
        var path = ""
        for interval in intervals {
            let x0 = x(interval.interval.start)
            let x1 = x(interval.interval.end)
            let level = y(interval.stage)
            path += path.isEmpty ? "M\(format(x0)),\(format(level))" : " L\(format(x0)),\(format(level))"
            path += " L\(format(x1)),\(format(level))"
            svg += "<rect x=\"\(format(x0))\" y=\"\(format(level - rowHeight * 0.35))\" "
            svg += "width=\"\(format(max(0.5, x1 - x0)))\" height=\"\(format(rowHeight * 0.7))\" "
            svg += "fill=\"\(StageColours.colour(interval.stage))\"/>\n"
        }
        if !path.isEmpty { svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\"/>\n" }
        for event in result.events where event.type == .snoring {
            svg += "<rect x=\"\(format(x(event.interval.start)))\" y=\"\(format(bottom + 6))\" "
            svg += "width=\"\(format(max(1, x(event.interval.end) - x(event.interval.start))))\" height=\"6\" "
            svg += "fill=\"\(StageColours.snoring)\"/>\n"
        }
        svg += "<text x=\"24\" y=\"\(format(bottom + 13))\">snoring</text>\n"
        svg += frame.timeAxis(top: top, bottom: bottom)
        svg += axisLabels(result, left: left, right: right, top: top, bottom: bottom)
        svg += legend(colours: rows.map { ($0.rawValue, StageColours.colour($0)) }, right: right)
        svg += "</svg>\n"
        return svg
    }

    /// The axis titles: the time axis with its zone and step, the stage axis turned upright.
    private static func axisLabels(
        _ result: AnalysisResult, left: Double, right: Double, top: Double, bottom: Double
    ) -> String {
        let step = HypnogramTimeAxis.stepInMinutes(for: result.endTime.timeIntervalSince(result.startTime))
        let middle = format((top + bottom) / 2)
        return """
            <text class="axis-label" x="\(format((left + right) / 2))" y="\(format(bottom + 52))" \
            text-anchor="middle">time (\(escape(result.timeZone.identifier)), ticks every \(step) min)</text>
            <text class="axis-label" x="12" y="\(middle)" text-anchor="middle" \
            transform="rotate(-90 12 \(middle))">sleep stage</text>

            """
    }

    /// A legend of the stage colours and the snoring mark, right-aligned in the title row.
    private static func legend(colours: [(name: String, colour: String)], right: Double) -> String {
        let entries = colours + [("snoring", StageColours.snoring)]
        let entryWidth = 80.0
        var x = right - entryWidth * Double(entries.count)
        var svg = "<g class=\"legend\">\n"
        for (name, colour) in entries {
            svg += "<rect x=\"\(format(x))\" y=\"8\" width=\"12\" height=\"12\" fill=\"\(colour)\"/>\n"
            svg += "<text x=\"\(format(x + 16))\" y=\"18\">\(name)</text>\n"
            x += entryWidth
        }
        return svg + "</g>\n"
    }

    private static func format(_ value: Double) -> String { NightChartFrame.format(value) }

    private static func dateText(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    private static func escape(_ text: String) -> String { HTMLEscaping.escape(text) }
}

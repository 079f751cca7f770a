import Foundation

/// Draws the night's events as a timeline: one row per event type that occurred (in `EventType` order), one bar
/// per event from its start to its end, each with a tooltip giving its time and probability.
enum EventTimelineChart {
    /// The bar colour of each event type (snoring as in the hypnogram); others grey.
    static let colours: [EventType: String] = [
        .snoring: StageColours.snoring, .movement: "#5b8c5a", .talking: "#7d5ba6", .coughing: "#c0392b",
    ]

    /// The SVG picture of `result`'s events; nil when there are none.
    ///
    /// - Parameters:
    ///   - result: The session's result.
    ///   - width: Picture width in pixels (the hypnogram's, so that times line up).
    /// - Returns: The SVG markup, or nil.
    static func render(_ result: AnalysisResult, width: Int = 960) -> String? {
        let types = EventType.allCases.filter { type in result.events.contains { $0.type == type } }
        guard !types.isEmpty else { return nil }
        let frame = NightChartFrame(result, width: width)
        let top = 10.0
        let rowHeight = 22.0
        let bottom = top + rowHeight * Double(types.count)
        var svg = frame.openSVG(height: Int(bottom) + 40, label: "events over the night")
        for (row, type) in types.enumerated() {
            let y = top + rowHeight * Double(row)
            svg += "<text x=\"\(f(frame.left - 6))\" y=\"\(f(y + 15))\" text-anchor=\"end\">\(type.rawValue)</text>\n"
            svg += "<line x1=\"\(f(frame.left))\" x2=\"\(f(frame.right))\" y1=\"\(f(y + rowHeight))\" "
            svg += "y2=\"\(f(y + rowHeight))\" stroke=\"#eeeeee\"/>\n"
            for event in result.events where event.type == type {
                let x0 = frame.x(event.interval.start)
                let tooltip =
                    "\(type.rawValue) \(NightChartFrame.clockText(event.interval.start, result.timeZone)), "
                    + String(format: "%.0f s, p = %.2f", event.interval.duration, event.probability)
                svg +=
                    "<rect x=\"\(f(x0))\" y=\"\(f(y + 4))\" width=\"\(f(max(1.5, frame.x(event.interval.end) - x0)))\" "
                svg += "height=\"\(f(rowHeight - 8))\" fill=\"\(colours[type] ?? "#888888")\">"
                svg += "<title>\(HTMLEscaping.escape(tooltip))</title></rect>\n"
            }
        }
        svg += frame.timeAxis(top: top, bottom: bottom)
        return svg + "</svg>\n"
    }

    private static func f(_ value: Double) -> String { NightChartFrame.format(value) }
}

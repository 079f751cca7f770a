import Foundation

/// One figure over the nights as an SVG picture: a point per night on a calendar axis (so missed nights leave a
/// gap), joined by a line, the average as a dashed line, the last night ringed, a tick and label every week.
enum TrendChart {
    /// The line and point colour.
    static let colour = "#0b5cad"

    /// The picture; nil when no night has the figure.
    ///
    /// - Parameters:
    ///   - trends: The nights.
    ///   - metric: The figure.
    ///   - width: Picture width in pixels.
    /// - Returns: The SVG markup, or nil.
    static func render(_ trends: NightTrends, metric: TrendMetric, width: Int = 960) -> String? {
        let points = trends.nights.compactMap { night in night[keyPath: metric.figure].map { (night, $0) } }
        guard let first = trends.nights.first, let last = trends.nights.last, !points.isEmpty,
            let low = points.map(\.1).min(), let high = points.map(\.1).max()
        else { return nil }
        let zone = first.timeZone
        let left = 120.0
        let right = Double(width) - 24
        let top = 14.0
        let bottom = 150.0
        let firstDay = day(first)
        let days = max(1, day(last) - firstDay)
        func x(_ night: NightTrends.Night) -> Double {
            left + (right - left) * Double(day(night) - firstDay) / Double(days)
        }
        let padding = max((high - low) * 0.15, abs(high) * 0.05, 1e-9)
        let floor = low - padding
        let ceiling = high + padding
        func y(_ value: Double) -> Double { bottom - (bottom - top) * (value - floor) / (ceiling - floor) }
        let label =
            "\(metric.title) over \(ReportText.count(points.count, "night")), from \(metric.format(low)) to "
            + "\(metric.format(high)) (the table below gives each night)"
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="190" viewBox="0 0 \(width) 190" \
            font-family="sans-serif" font-size="15" fill="#1f2328" role="img" aria-label="\(HTMLEscaping.escape(label))">
            <rect width="100%" height="100%" fill="white"/>

            """
        for value in [low, high] {
            svg += "<line x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(y(value)))\" y2=\"\(f(y(value)))\" "
            svg += "stroke=\"#eeeeee\"/>\n"
            svg += "<text x=\"\(f(left - 8))\" y=\"\(f(y(value) + 5))\" text-anchor=\"end\">"
            svg += "\(HTMLEscaping.escape((metric.axis ?? metric.format)(value)))</text>\n"
        }
        if let average = trends.average(metric.figure) {
            svg += "<line class=\"average\" x1=\"\(f(left))\" x2=\"\(f(right))\" y1=\"\(f(y(average)))\" "
            svg += "y2=\"\(f(y(average)))\" stroke=\"#57606a\" stroke-dasharray=\"6 4\"/>\n"
        }
        var week = 0
        while week <= days {
            let position = left + (right - left) * Double(week) / Double(days)
            let date = first.startTime.addingTimeInterval(Double(week) * 86_400)
            svg += "<line x1=\"\(f(position))\" x2=\"\(f(position))\" y1=\"\(f(top))\" y2=\"\(f(bottom + 6))\" "
            svg += "stroke=\"#cccccc\"/>\n"
            svg += "<text x=\"\(f(position))\" y=\"\(f(bottom + 24))\" text-anchor=\"middle\">"
            svg += "\(HTMLEscaping.escape(ReportText.shortDate(ReportText.nightDate(date, zone), zone)))</text>\n"
            week += 7
        }
        let coordinates = points.map { "\(f(x($0.0))),\(f(y($0.1)))" }
        if points.count > 1 {
            svg += "<polyline points=\"\(coordinates.joined(separator: " "))\" fill=\"none\" stroke=\"\(colour)\" "
            svg += "stroke-width=\"2\"/>\n"
        }
        for (night, value) in points {
            let radius = night.sessionId == last.sessionId ? 6.5 : 4
            svg += "<circle cx=\"\(f(x(night)))\" cy=\"\(f(y(value)))\" r=\"\(radius)\" fill=\"\(colour)\""
            svg += night.sessionId == last.sessionId ? " stroke=\"#1f2328\" stroke-width=\"2\">" : ">"
            svg +=
                "<title>\(HTMLEscaping.escape(ReportText.shortDate(ReportText.nightDate(night.startTime, night.timeZone), night.timeZone))): "
            svg += "\(HTMLEscaping.escape(metric.format(value)))</title></circle>\n"
        }
        return svg + "</svg>\n"
    }

    /// The night's evening as a day number (days since 1970 in the night's zone).
    private static func day(_ night: NightTrends.Night) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = night.timeZone
        let evening = calendar.startOfDay(for: ReportText.nightDate(night.startTime, night.timeZone))
        let seconds = evening.timeIntervalSince1970 + Double(night.timeZone.secondsFromGMT(for: evening))
        return Int((seconds / 86_400).rounded())
    }

    private static func f(_ value: Double) -> String { NightChartFrame.format(value) }
}

import Foundation

/// Draws one measurement over the night (breathing rate, sound level) as a line with a labelled value axis, on the
/// hypnogram's time scale. The line breaks where measurements stop for more than three times their usual spacing.
struct NightLineChart {
    /// One measurement.
    struct Point {
        /// When it was measured.
        var time: Date
        /// The value.
        var value: Double
    }

    /// The value axis title, with its unit ("breaths per minute").
    var axisTitle: String
    /// The line's colour.
    var colour: String

    /// The SVG picture of `points` over `result`'s night; nil when there are none.
    ///
    /// - Parameters:
    ///   - points: The measurements, in time order; non-finite values are left out.
    ///   - result: The session's result (the night's span and time zone).
    ///   - width: Picture width in pixels (the hypnogram's, so that times line up).
    /// - Returns: The SVG markup, or nil.
    func render(_ points: [Point], over result: AnalysisResult, width: Int = 960) -> String? {
        let points = points.filter { $0.value.isFinite }
        guard let low = points.map(\.value).min(), let high = points.map(\.value).max() else { return nil }
        let frame = NightChartFrame(result, width: width)
        let top = 12.0
        let bottom = 132.0
        // A measure that cannot go below zero (a rate, a level above the quietest minute) keeps its axis at zero.
        let floor =
            low >= 0
            ? max(0, (low - max(1, (high - low) * 0.1)).rounded(.down))
            : (low - max(1, (high - low) * 0.1)).rounded(.down)
        let ceiling = (high + max(1, (high - low) * 0.1)).rounded(.up)
        func y(_ value: Double) -> Double { bottom - (bottom - top) * (value - floor) / (ceiling - floor) }
        var svg = frame.openSVG(height: Int(bottom) + 40, label: axisTitle)
        for value in [floor, (floor + ceiling) / 2, ceiling] {
            svg += "<line x1=\"\(f(frame.left))\" x2=\"\(f(frame.right))\" y1=\"\(f(y(value)))\" "
            svg += "y2=\"\(f(y(value)))\" stroke=\"#eeeeee\"/>\n"
            svg += "<text x=\"\(f(frame.left - 6))\" y=\"\(f(y(value) + 4))\" text-anchor=\"end\">"
            svg += String(format: "%.0f", value) + "</text>\n"
        }
        let middle = f((top + bottom) / 2)
        svg += "<text class=\"axis-label\" x=\"12\" y=\"\(middle)\" text-anchor=\"middle\" "
        svg += "transform=\"rotate(-90 12 \(middle))\">\(HTMLEscaping.escape(axisTitle))</text>\n"
        svg += frame.timeAxis(top: top, bottom: bottom)
        for run in Self.runs(points) {
            let coordinates = run.map { "\(f(frame.x($0.time))),\(f(y($0.value)))" }
            if run.count == 1 {
                svg += "<circle cx=\"\(f(frame.x(run[0].time)))\" cy=\"\(f(y(run[0].value)))\" r=\"2\" "
                svg += "fill=\"\(colour)\"/>\n"
            } else {
                svg += "<polyline points=\"\(coordinates.joined(separator: " "))\" fill=\"none\" "
                svg += "stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
            }
        }
        return svg + "</svg>\n"
    }

    /// The points cut where the gap to the next is over three times the median gap.
    static func runs(_ points: [Point]) -> [[Point]] {
        let gaps = zip(points, points.dropFirst()).map { $1.time.timeIntervalSince($0.time) }.sorted()
        let limit = 3 * (gaps.isEmpty ? 0 : gaps[gaps.count / 2])
        var runs: [[Point]] = []
        for point in points {
            if let last = runs.last?.last, point.time.timeIntervalSince(last.time) <= limit {
                runs[runs.count - 1].append(point)
            } else {
                runs.append([point])
            }
        }
        return runs
    }

    private func f(_ value: Double) -> String { NightChartFrame.format(value) }
}

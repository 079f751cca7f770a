import Foundation

/// Draws each 30-second epoch's stage probabilities as a stacked column (deep at the bottom, then light, REM and
/// awake), under the hypnogram and on the same time scale, so that an uncertain stretch of the night shows as
/// mixed colours.
enum StageProbabilityChart {
    /// The stacking order, bottom first.
    static let stack: [SleepStage] = [.deep, .light, .rem, .awake]

    /// The SVG picture of `result`'s whole-night predictions; nil when the night has none.
    ///
    /// - Parameters:
    ///   - result: The session's result.
    ///   - width: Picture width in pixels (the hypnogram's, so that times line up).
    /// - Returns: The SVG markup, or nil.
    static func render(_ result: AnalysisResult, width: Int = 960) -> String? {
        guard !result.sleepStagePredictions.isEmpty else { return nil }
        let frame = NightChartFrame(result, width: width)
        let top = 12.0
        let bottom = 132.0
        let height = Int(bottom) + 40
        var svg = frame.openSVG(height: height, label: "stage probability of each 30-second epoch")
        for prediction in result.sleepStagePredictions {
            let x0 = frame.x(prediction.interval.start)
            let columnWidth = max(0.5, frame.x(prediction.interval.end) - x0)
            var base = bottom
            for stage in stack {
                let columnHeight = (bottom - top) * prediction.probabilities[stage]
                guard columnHeight > 0.05 else { continue }
                base -= columnHeight
                svg += "<rect x=\"\(f(x0))\" y=\"\(f(base))\" width=\"\(f(columnWidth))\" "
                svg +=
                    "height=\"\(f(columnHeight))\" shape-rendering=\"crispEdges\" fill=\"\(StageColours.colour(stage))\"/>\n"
            }
        }
        for (fraction, label) in [(0.0, "0"), (0.5, "0.5"), (1.0, "1")] {
            let y = bottom - (bottom - top) * fraction
            svg += "<text x=\"\(f(frame.left - 6))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(label)</text>\n"
        }
        let middle = f((top + bottom) / 2)
        svg += "<text class=\"axis-label\" x=\"12\" y=\"\(middle)\" text-anchor=\"middle\" "
        svg += "transform=\"rotate(-90 12 \(middle))\">probability</text>\n"
        svg += frame.timeAxis(top: top, bottom: bottom)
        return svg + "</svg>\n"
    }

    private static func f(_ value: Double) -> String { NightChartFrame.format(value) }
}

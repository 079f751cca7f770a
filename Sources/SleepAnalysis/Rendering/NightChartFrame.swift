import Foundation

/// The horizontal frame every chart of a night shares (the hypnogram and the night report's charts): the same
/// width and margins, so that one time falls at one x in every chart, and the same time axis.
struct NightChartFrame {
    /// The picture's width in pixels.
    let width: Int
    /// The x of the night's start.
    let left: Double
    /// The x of the night's end.
    let right: Double
    /// The night's start.
    let start: Date
    /// The night's end.
    let end: Date
    /// The session's time zone, for the tick labels.
    let zone: TimeZone

    /// The frame of `result`'s night.
    ///
    /// - Parameters:
    ///   - result: The session's result.
    ///   - width: Picture width in pixels.
    init(_ result: AnalysisResult, width: Int) {
        self.width = width
        left = 120
        right = Double(width) - 20
        start = result.startTime
        end = result.endTime
        zone = result.timeZone
    }

    /// The x of `date` (the night's length is taken as at least one second).
    func x(_ date: Date) -> Double {
        left + (right - left) * date.timeIntervalSince(start) / max(1, end.timeIntervalSince(start))
    }

    /// A tick line from `top` to under `bottom` and an `HH:mm` label at every tick of `HypnogramTimeAxis`.
    func timeAxis(top: Double, bottom: Double) -> String {
        var svg = ""
        for tick in HypnogramTimeAxis.ticks(from: start, to: end, in: zone) {
            let position = Self.format(x(tick))
            svg += "<line class=\"tick\" x1=\"\(position)\" x2=\"\(position)\" y1=\"\(Self.format(top))\" "
            svg += "y2=\"\(Self.format(bottom + 16))\" stroke=\"#cccccc\"/>\n"
            svg += "<text class=\"tick-label\" x=\"\(position)\" y=\"\(Self.format(bottom + 32))\" "
            svg += "text-anchor=\"middle\">\(Self.clockText(tick, zone))</text>\n"
        }
        return svg
    }

    /// The opening tag of a chart's SVG picture, `height` pixels tall, with a white background.
    func openSVG(height: Int, label: String) -> String {
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
        viewBox="0 0 \(width) \(height)" font-family="sans-serif" font-size="15" fill="#1f2328" \
        role="img" aria-label="\(HTMLEscaping.escape(label))">
        <rect width="100%" height="100%" fill="white"/>

        """
    }

    /// A coordinate with one decimal.
    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    /// `06:42` in `zone`.
    static func clockText(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}

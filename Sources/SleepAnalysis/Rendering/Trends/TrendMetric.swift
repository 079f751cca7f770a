import Foundation

/// A figure the trends page follows across nights: how it is named, read from a night and written.
struct TrendMetric {
    /// The section id (`total-sleep`).
    var id: String
    /// The name (`Total sleep`).
    var title: String
    /// The figure.
    var figure: KeyPath<NightTrends.Night, Double?>
    /// A value for people (`6 h 42 min`).
    var format: @Sendable (Double) -> String
    /// A value on the chart's axis, shorter (`13.4 /min`); `format` when nil.
    var axis: (@Sendable (Double) -> String)? = nil
    /// A difference for people, positive meaning more (`32 min more`).
    var difference: @Sendable (Double) -> String

    /// Every figure, in the page's order.
    static var all: [TrendMetric] {
        [
            TrendMetric(
                id: "total-sleep", title: "Total sleep", figure: \.totalSleepDuration,
                format: { ReportText.duration($0) },
                difference: { moreOrLess(ReportText.duration(abs($0)), $0, more: "more", less: "less") }),
            TrendMetric(
                id: "efficiency", title: "Sleep efficiency", figure: \.sleepEfficiency,
                format: { ReportText.percent($0) },
                difference: {
                    moreOrLess(
                        String(format: "%.0f percentage points", abs($0) * 100), $0, more: "higher", less: "lower")
                }),
            TrendMetric(
                id: "score", title: "Sleep score", figure: \.score, format: { String(format: "%.0f", $0) },
                difference: { moreOrLess(String(format: "%.0f points", abs($0)), $0, more: "higher", less: "lower") }),
            TrendMetric(
                id: "snoring", title: "Snoring time", figure: \.snoreTime, format: { ReportText.duration($0) },
                difference: { moreOrLess(ReportText.duration(abs($0)), $0, more: "more", less: "less") }),
            TrendMetric(
                id: "breathing", title: "Breathing rate", figure: \.meanBreathingRate,
                format: { String(format: "%.1f breaths per minute", $0) },
                axis: { String(format: "%.1f /min", $0) },
                difference: {
                    moreOrLess(String(format: "%.1f breaths per minute", abs($0)), $0, more: "faster", less: "slower")
                }),
            TrendMetric(
                id: "midpoint", title: "Sleep midpoint", figure: \.sleepMidpointMinutes, format: clock,
                difference: { moreOrLess(ReportText.duration(abs($0) * 60), $0, more: "later", less: "earlier") }),
        ]
    }

    /// `02:30` for minutes after the evening's midnight (1,590).
    @Sendable static func clock(_ minutes: Double) -> String {
        let whole = (Int(minutes.rounded()) % 1440 + 1440) % 1440
        return String(format: "%02d:%02d", whole / 60, whole % 60)
    }

    /// `32 min more`, `32 min less`, or `the same` for a difference that rounds to nothing.
    private static func moreOrLess(_ amount: String, _ value: Double, more: String, less: String) -> String {
        if amount.hasPrefix("0 ") || amount == "0" || amount.hasPrefix("0.0 ") { return "the same" }
        return "\(amount) \(value > 0 ? more : less)"
    }
}

import Foundation

/// A night as a self-contained HTML page: the night at a glance (score, total sleep, efficiency, time in bed, onset,
/// the share of each stage), the hypnogram with the events under one time axis and each epoch's stage
/// probabilities, then snoring, breathing rate and sound level when the night has them, the statistics, problems
/// with the input, and which inputs staged the night (and whether that mode is validated).
///
/// The page has its style sheet and pictures inline (SVG) and no scripts, fonts, images or links to fetch: it
/// reads the same offline. Every text taken from the result is escaped. `sleepanalysis analyze --report FILE`
/// writes one.
public enum NightReportHTML {
    /// One night on the page, with what the report draws besides the result.
    public struct Night: Sendable {
        /// The session's result.
        public var result: AnalysisResult
        /// Its sleep score (`SleepScoring.score`); nil when the night has none (the page says why).
        public var score: SleepScore?
        /// The sound level the analysis measured (`SoundLevelCollector`); nil when it was not collected.
        public var soundLevel: SoundLevelTimeline?
        /// A heading for the night when a page has several (the channel of a two-sleeper recording).
        public var title: String?

        /// Creates a night.
        ///
        /// - Parameters:
        ///   - result: The session's result.
        ///   - score: Its sleep score; nil when the night has none (`AnalysisResult.scoreUnavailableReason`).
        ///   - soundLevel: The sound level the analysis measured; nil when it was not collected.
        ///   - title: A heading for the night when a page has several.
        public init(
            result: AnalysisResult, score: SleepScore?, soundLevel: SoundLevelTimeline? = nil, title: String? = nil
        ) {
            self.result = result
            self.score = score
            self.soundLevel = soundLevel
            self.title = title
        }
    }

    /// The HTML document of one or more nights (one per sleeper of a recording, or one per night of a split
    /// recording).
    ///
    /// The page opens with each night at a glance (the score or why there is none, total sleep, efficiency, time in
    /// bed, when sleep began, the share of each stage), then the hypnogram with the events under one time axis,
    /// then a card for each thing the night had (snoring, breathing, sound level, …) and how it was measured. Every
    /// chart has a legend and a table of its figures; the page reads at phone width and prints.
    ///
    /// - Parameter nights: The nights, in the order shown; the first names the page.
    /// - Returns: A complete HTML5 document.
    public static func render(_ nights: [Night]) -> String {
        let title = NightReportPage.title(nights)
        var html = ReportDocument.start(title: title)
        for night in nights {
            let several = nights.count > 1
            let context = NightReportContext(
                night: night, idPrefix: several ? idPrefix(night.title) : "", headingLevel: several ? 3 : 2)
            let heading =
                several
                ? night.title ?? ReportText.longDate(NightReportPage.nightDate(night.result), night.result.timeZone)
                : night.title
            let body = NightReportPage.header(context, heading: heading) + NightReportCards.html(context)
            html += several ? "<article class=\"night\">\n\(body)</article>\n" : body
        }
        return html + ReportDocument.end
    }

    /// `primary-`: a night's title as the start of its section ids (letters and digits kept, the rest `-`).
    private static func idPrefix(_ title: String?) -> String {
        String((title ?? "night").map { $0.isLetter || $0.isNumber ? $0 : "-" }) + "-"
    }
}

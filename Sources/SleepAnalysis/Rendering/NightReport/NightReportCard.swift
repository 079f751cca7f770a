import Foundation

/// One card of the night report: a `<section>` with an id, a heading and its markup.
///
/// Each card is one function of `NightReportCards` in a file of its own (`NightReportCards+Snoring.swift`), which
/// returns nil when the night has nothing for it; `NightReportCards.all` puts them in reading order.
struct NightReportCard {
    /// The section's id, before the page's prefix (`snoring`).
    var id: String
    /// The heading.
    var title: String
    /// The markup under the heading.
    var body: String
    /// A class for the section (`notice` for something to act on).
    var className: String?

    /// Creates a card.
    init(id: String, title: String, body: String, className: String? = nil) {
        self.id = id
        self.title = title
        self.body = body
        self.className = className
    }
}

/// What the cards of one night are drawn from.
struct NightReportContext {
    /// The night.
    let night: NightReportHTML.Night
    /// Put before every id, so that two nights on one page keep their ids apart.
    let idPrefix: String
    /// The level of the cards' headings (2 on a page of one night, 3 under each night's own heading).
    let headingLevel: Int

    /// The session's result.
    var result: AnalysisResult { night.result }
    /// The session's time zone.
    var zone: TimeZone { night.result.timeZone }

    /// `id` with the page's prefix, escaped for an attribute.
    func id(_ name: String) -> String { HTMLEscaping.escape(idPrefix + name) }

    /// `06:42` in the session's zone.
    func clock(_ date: Date) -> String { ReportText.clock(date, zone) }
}

/// The cards of the night report.
enum NightReportCards {
    /// The cards in reading order: what the night was at a glance, then the night over time, then each thing the
    /// night had, then how it was measured.
    static var all: [(NightReportContext) -> NightReportCard?] {
        [
            headline, timeline, stageProbabilities, snoring, breathing, soundLevel, details, confidence, smartAlarm,
            audioHealth, about,
        ]
    }

    /// The markup of every card the night has.
    static func html(_ context: NightReportContext) -> String {
        all.compactMap { $0(context) }.map { section($0, context) }.joined()
    }

    private static func section(_ card: NightReportCard, _ context: NightReportContext) -> String {
        let classAttribute = card.className.map { " class=\"\($0)\"" } ?? ""
        let level = context.headingLevel
        let heading = context.id(card.id + "-title")
        return "<section id=\"\(context.id(card.id))\"\(classAttribute) aria-labelledby=\"\(heading)\">\n"
            + "<h\(level) id=\"\(heading)\">\(HTMLEscaping.escape(card.title))</h\(level)>\n\(card.body)</section>\n\n"
    }
}

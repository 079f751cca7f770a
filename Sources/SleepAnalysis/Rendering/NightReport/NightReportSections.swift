import Foundation

/// The sections of one night in the HTML night report, in reading order: the heading, which inputs staged the
/// night, the hypnogram and stage probabilities, events, snoring, breathing rate, sound level, statistics, score,
/// and audio health with the input's warnings. Each is a `<section>` whose id names it (after `idPrefix`).
struct NightReportSections {
    /// The night.
    let night: NightReportHTML.Night
    /// Put before every section id, so that two nights on one page keep their ids apart.
    let idPrefix: String

    private var result: AnalysisResult { night.result }

    /// The night's markup.
    var html: String {
        [
            heading, stagingBasis, hypnogram, events, snoring, breathing, soundLevel, statistics,
            ConfidenceCard.html(result, id: id("confidence")), score, audioHealth,
        ].joined()
    }

    // MARK: - Sections

    private var heading: String {
        let zone = result.timeZone
        let title = night.title.map { "<h2>\(escape($0))</h2>\n" } ?? ""
        return """
            <header id="\(id("summary"))">
            <h1>Night of \(escape(Self.dateText(result.startTime, zone)))</h1>
            \(title)<p>\(escape(Self.timeText(result.startTime, zone))) – \(escape(Self.timeText(result.endTime, zone))) \
            (\(escape(zone.identifier))), session \(escape(result.sessionId.uuidString))</p>
            </header>

            """
    }

    private var stagingBasis: String {
        guard let basis = result.stagingBasis else {
            return section("staging-basis", "Staged from", "<p>\(escape(NightReportFacts.notStagedReason))</p>")
        }
        let note =
            basis.isValidated
            ? ""
            : "\n<p class=\"note\">Stages from these inputs are plausible, not measured: treat them as an estimate.</p>"
        return section(
            "staging-basis", "Staged from", "<p>\(escape(basis.summary))</p>\(note)",
            className: basis.isValidated ? "validated" : "notice")
    }

    private var hypnogram: String {
        let probabilities =
            StageProbabilityChart.render(result).map {
                "<p class=\"note\">Each 30-second epoch's stage probabilities (deep at the bottom, then light, "
                    + "REM, awake):</p>\n" + $0
            } ?? "<p class=\"note\">No per-epoch probabilities: the night was not staged as a whole.</p>\n"
        return section("hypnogram", "Hypnogram", HypnogramSVG.render(result) + probabilities)
    }

    private var events: String {
        let body =
            EventTimelineChart.render(result).map { chart in
                "<p class=\"note\">\(escape(NightReportFacts.observations(result).first { $0.label == "Events" }?.value ?? ""))</p>\n"
                    + chart
            } ?? "<p>No events were detected.</p>\n"
        return section("events", "Events", body)
    }

    private var snoring: String {
        let sessions = result.statistics?.snoreSessions ?? []
        let snores = result.events.filter { $0.type == .snoring }
        let total = NightReportFacts.statistics(result).first { $0.label == "Snoring" }?.value
        var body = "<p>\(snores.count) snoring event(s)"
        body += total.map { "; snoring time \(escape($0))" } ?? ""
        body += sessions.isEmpty ? ".</p>\n" : ":</p>\n"
        if !sessions.isEmpty {
            body += "<table>\n<tr><th>From</th><th>To</th><th>Snores</th><th>Snoring time</th></tr>\n"
            for session in sessions {
                body += "<tr><td>\(clock(session.interval.start))</td><td>\(clock(session.interval.end))</td>"
                body += "<td>\(session.eventCount)</td><td>\(escape(NightReportFacts.duration(session.snoreDuration)))"
                body += "</td></tr>\n"
            }
            body += "</table>\n"
        }
        return section("snoring", "Snoring", body)
    }

    private var breathing: String {
        let points = result.breathingRates.map { NightLineChart.Point(time: $0.timestamp, value: $0.bpm) }
        let chart = NightLineChart(axisTitle: "breaths per minute", colour: "#2a7ab0").render(points, over: result)
        let fact = NightReportFacts.observations(result).first { $0.label == "Breathing rate" }
        return section(
            "breathing", "Breathing rate", "<p>\(escape(fact?.value ?? ""))</p>\n" + (chart ?? ""))
    }

    private var soundLevel: String {
        guard let timeline = night.soundLevel, let leq = timeline.leq else {
            return section(
                "sound-level", "Sound level",
                "<p>Not measured: no audio was analysed, or the levels were not collected for this night.</p>\n")
        }
        let points = timeline.minutes.map {
            NightLineChart.Point(time: $0.start.addingTimeInterval(30), value: $0.leq)
        }
        let chart = NightLineChart(axisTitle: "dB SPL (A), per minute", colour: "#6e5494").render(points, over: result)
        let levels = timeline.minutes.map(\.leq)
        let text = String(
            format: "LAeq %.1f dB SPL over %d measured minute(s); quietest minute %.1f, loudest %.1f", leq,
            levels.count, levels.min() ?? leq, levels.max() ?? leq)
        return section("sound-level", "Sound level", "<p>\(escape(text))</p>\n" + (chart ?? ""))
    }

    private var statistics: String {
        section("statistics", "Statistics", table(NightReportFacts.statistics(result)))
    }

    private var score: String {
        guard let score = night.score else {
            let reason = result.scoreUnavailableReason ?? .notStaged
            return section("score", "Sleep score", "<p>No score: \(escape(reason.message)).</p>\n")
        }
        let total = String(format: "%.0f", score.total * 100)
        let parts = String(
            format: "duration %.2f, quality %.2f, routine %.2f (each 0–1)", score.duration, score.quality,
            score.routine)
        return section("score", "Sleep score", "<p class=\"score\">\(total) / 100</p>\n<p>\(escape(parts))</p>\n")
    }

    private var audioHealth: String {
        let health = NightReportFacts.observations(result).filter {
            $0.label == "Audio health" || $0.label == "Smart alarm"
        }
        var body = health.isEmpty ? "<p>No audio was analysed.</p>\n" : table(health)
        if result.warnings.isEmpty {
            body += "<p>No warnings: the input was clean.</p>\n"
        } else {
            body += "<ul>\n" + result.warnings.map { "<li>\(escape($0.message))</li>\n" }.joined() + "</ul>\n"
        }
        return section(
            "audio-health", "Audio health and warnings", body, className: result.warnings.isEmpty ? nil : "notice")
    }

    // MARK: - Markup

    private func section(_ name: String, _ title: String, _ body: String, className: String? = nil) -> String {
        let classAttribute = className.map { " class=\"\($0)\"" } ?? ""
        return "<section id=\"\(id(name))\"\(classAttribute)>\n<h2>\(escape(title))</h2>\n\(body)</section>\n\n"
    }

    private func table(_ facts: [NightReportFact]) -> String {
        "<table>\n"
            + facts.map { "<tr><th>\(escape($0.label))</th><td>\(escape($0.value))</td></tr>\n" }.joined()
            + "</table>\n"
    }

    private func id(_ name: String) -> String { escape(idPrefix + name) }

    private func clock(_ date: Date) -> String { escape(NightReportFacts.clock(date, result.timeZone)) }

    private func escape(_ text: String) -> String { HTMLEscaping.escape(text) }

    /// `2026-12-01` in `zone`.
    static func dateText(_ date: Date, _ zone: TimeZone) -> String { formatted(date, zone, "yyyy-MM-dd") }

    /// `2026-12-01 23:00` in `zone`.
    static func timeText(_ date: Date, _ zone: TimeZone) -> String { formatted(date, zone, "yyyy-MM-dd HH:mm") }

    private static func formatted(_ date: Date, _ zone: TimeZone, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}

import Foundation

extension NightReportCards {
    /// The night over time: the hypnogram with a lane per event type under it, one time axis, the legend, and the
    /// stages and events as tables.
    static func timeline(_ context: NightReportContext) -> NightReportCard? {
        let result = context.result
        guard let chart = NightTimelineChart.render(result) else { return nil }
        let intervals = result.storedStageIntervals
        var body = ""
        if !result.events.isEmpty {
            body += "<p>\(HTMLEscaping.escape(eventSummary(result)))</p>\n"
        }
        var caption = ""
        if !intervals.isEmpty {
            caption += StageColours.legendHTML()
            if result.sleepStageIntervals.isEmpty {
                caption += "<p class=\"note\">Stages as the night went (real time): it was not staged as a whole.</p>"
            }
        }
        if !result.events.isEmpty {
            caption += "<p class=\"note\">\(StageColours.swatch(StageColours.event)) each detected event, in the lane "
            caption += "of its kind.</p>"
        }
        body += ReportFigure.html(chart, name: "hypnogram and events", caption: caption)
        if !intervals.isEmpty {
            body += ReportTable.html(
                caption: "sleep stages", columns: ["From", "To", "Stage", "Duration"],
                rows: intervals.map {
                    [
                        context.clock($0.interval.start), context.clock($0.interval.end), StageColours.name($0.stage),
                        ReportText.duration($0.interval.duration),
                    ]
                })
        }
        if !result.events.isEmpty {
            body += ReportTable.html(
                caption: "events by kind", columns: ["Kind", "Events", "Time", "First", "Last"],
                rows: eventKinds(result).map { type, events in
                    [
                        EventNames.name(type), String(events.count),
                        ReportText.span(events.reduce(0) { $0 + $1.interval.duration }),
                        context.clock(events[0].interval.start), context.clock(events[events.count - 1].interval.start),
                    ]
                })
        }
        let title = intervals.isEmpty ? "Events" : result.events.isEmpty ? "Sleep stages" : "Sleep stages and events"
        return NightReportCard(id: "hypnogram", title: title, body: body)
    }

    /// `3 snoring events, 1 coughing event`: the night's events by kind, most frequent first.
    static func eventSummary(_ result: AnalysisResult) -> String {
        eventKinds(result).sorted { $0.events.count > $1.events.count }.map {
            ReportText.count($0.events.count, EventNames.name($0.type).lowercased() + " event")
        }.joined(separator: ", ")
    }

    /// The events of each kind that occurred, in `EventType` order, each kind's in time order.
    static func eventKinds(_ result: AnalysisResult) -> [(type: EventType, events: [Event])] {
        EventType.allCases.compactMap { type in
            let events = result.events.filter { $0.type == type }.sorted { $0.interval.start < $1.interval.start }
            return events.isEmpty ? nil : (type, events)
        }
    }
}

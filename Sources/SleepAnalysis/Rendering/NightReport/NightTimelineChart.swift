import Foundation

/// The night on one time axis: the hypnogram (a row per stage, awake at the top and deep at the bottom, each
/// stretch filled in its stage's colour and joined by a step line), then one lane per event type that occurred (in
/// `EventType` order, each event a mark from its start to its end with a tooltip), and the time ticks once, under
/// everything.
enum NightTimelineChart {
    /// The height of a stage row, in pixels.
    static let stageRowHeight = 34.0
    /// The height of an event lane, in pixels.
    static let laneHeight = 24.0

    /// The SVG picture of `result`'s stages and events; nil when it has neither.
    ///
    /// - Parameters:
    ///   - result: The session's result.
    ///   - width: Picture width in pixels (every chart of the night has the same, so that times line up).
    /// - Returns: The SVG markup, or nil.
    static func render(_ result: AnalysisResult, width: Int = 960) -> String? {
        let intervals = result.storedStageIntervals
        let types = EventType.allCases.filter { type in result.events.contains { $0.type == type } }
        guard !intervals.isEmpty || !types.isEmpty else { return nil }
        let frame = NightChartFrame(result, width: width)
        let top = 8.0
        let stagesBottom = intervals.isEmpty ? top : top + stageRowHeight * Double(StageColours.order.count)
        let lanesTop = stagesBottom + (intervals.isEmpty || types.isEmpty ? 0 : 14)
        let bottom = lanesTop + laneHeight * Double(types.count)
        var svg = frame.openSVG(height: Int(bottom) + 40, label: label(result, intervals: intervals, types: types))
        svg += stages(intervals, frame: frame, top: top)
        for (index, type) in types.enumerated() {
            svg += lane(type, result: result, frame: frame, top: lanesTop + laneHeight * Double(index))
        }
        svg += frame.timeAxis(top: top, bottom: bottom)
        return svg + "</svg>\n"
    }

    /// The text a screen reader gives for the picture.
    private static func label(_ result: AnalysisResult, intervals: [SleepStageInterval], types: [EventType]) -> String {
        var parts: [String] = []
        if !intervals.isEmpty { parts.append("hypnogram: sleep stages over the night") }
        if !types.isEmpty {
            parts.append("events: " + types.map { EventNames.name($0).lowercased() }.joined(separator: ", "))
        }
        return parts.joined(separator: "; ") + " (the tables below give the figures)"
    }

    private static func stages(_ intervals: [SleepStageInterval], frame: NightChartFrame, top: Double) -> String {
        guard !intervals.isEmpty else { return "" }
        func y(_ stage: SleepStage) -> Double {
            top + stageRowHeight * (Double(StageColours.order.firstIndex(of: stage) ?? 0) + 0.5)
        }
        var svg = ""
        for stage in StageColours.order {
            svg += "<text x=\"\(f(frame.left - 8))\" y=\"\(f(y(stage) + 5))\" text-anchor=\"end\">"
            svg += "\(StageColours.name(stage))</text>\n"
            svg += "<line x1=\"\(f(frame.left))\" x2=\"\(f(frame.right))\" y1=\"\(f(y(stage)))\" y2=\"\(f(y(stage)))\" "
            svg += "stroke=\"#eeeeee\"/>\n"
        }
        var path = ""
        for interval in intervals {
            let x0 = frame.x(interval.interval.start)
            let x1 = frame.x(interval.interval.end)
            let level = y(interval.stage)
            path += (path.isEmpty ? "M" : " L") + "\(f(x0)),\(f(level)) L\(f(x1)),\(f(level))"
            svg += "<rect class=\"stage\" x=\"\(f(x0))\" y=\"\(f(level - stageRowHeight * 0.4))\" "
            svg += "width=\"\(f(max(0.5, x1 - x0)))\" height=\"\(f(stageRowHeight * 0.8))\" "
            svg += "shape-rendering=\"crispEdges\" fill=\"\(StageColours.colour(interval.stage))\"/>\n"
        }
        return svg + "<path d=\"\(path)\" fill=\"none\" stroke=\"#1f2328\" stroke-width=\"1.5\"/>\n"
    }

    private static func lane(_ type: EventType, result: AnalysisResult, frame: NightChartFrame, top: Double) -> String {
        var svg = "<text x=\"\(f(frame.left - 8))\" y=\"\(f(top + 17))\" text-anchor=\"end\">"
        svg += "\(HTMLEscaping.escape(EventNames.name(type)))</text>\n"
        svg += "<line x1=\"\(f(frame.left))\" x2=\"\(f(frame.right))\" y1=\"\(f(top + laneHeight))\" "
        svg += "y2=\"\(f(top + laneHeight))\" stroke=\"#eeeeee\"/>\n"
        for event in result.events where event.type == type {
            let x0 = frame.x(event.interval.start)
            let tooltip =
                "\(EventNames.name(type)) \(ReportText.clock(event.interval.start, result.timeZone)), "
                + String(format: "%.0f s, probability %.2f", event.interval.duration, event.probability)
            svg += "<rect class=\"event\" x=\"\(f(x0))\" y=\"\(f(top + 4))\" "
            svg += "width=\"\(f(max(1.5, frame.x(event.interval.end) - x0)))\" height=\"\(f(laneHeight - 8))\" "
            svg += "fill=\"\(StageColours.event)\"><title>\(HTMLEscaping.escape(tooltip))</title></rect>\n"
        }
        return svg
    }

    private static func f(_ value: Double) -> String { NightChartFrame.format(value) }
}

/// Event types as people name them.
enum EventNames {
    /// "Snoring", "Throat clearing", "Digestive sounds".
    static func name(_ type: EventType) -> String {
        switch type {
        case .throatClearing: "Throat clearing"
        case .digestive: "Digestive sounds"
        default: type.rawValue.prefix(1).uppercased() + type.rawValue.dropFirst()
        }
    }
}

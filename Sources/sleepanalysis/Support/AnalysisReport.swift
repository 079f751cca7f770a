import Foundation
import SleepAnalysis

/// What `analyze` prints for one session: the whole `AnalysisResult` plus its sleep score and smart-alarm events.
///
/// JSON: the `AnalysisResult` properties under their Swift names (dates ISO 8601 with milliseconds, event types
/// and stages by case name, durations in seconds), plus `score` (`total`, `duration`, `quality`, `routine`, 0…1;
/// absent when the result's `scoreUnavailableReason` says why) and `smartAlarm` (`[{"type", "reason", "time"}]`).
/// Keys are sorted, so the output is stable.
struct AnalysisReport: Encodable {
    let result: AnalysisResult
    let score: SleepScore?

    private enum ExtraKeys: String, CodingKey {
        case score, smartAlarm
    }

    func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
        var extra = encoder.container(keyedBy: ExtraKeys.self)
        try extra.encodeIfPresent(score, forKey: .score)
        try extra.encode(result.smartAlarmEvents.map(\.json), forKey: .smartAlarm)
    }

    /// The JSON encoder of every report.
    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamps.iso8601(date))
        }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }
}

/// ISO 8601 text for instants.
enum Timestamps {
    /// `2026-12-01T06:42:30.125Z`.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// `06:42` in `zone`.
    static func clock(_ date: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }

    /// `2 h 05 min` for a duration in seconds.
    static func duration(_ seconds: Double?) -> String {
        guard let seconds, seconds.isFinite else { return "–" }
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 60 ? String(format: "%d h %02d min", minutes / 60, minutes % 60) : "\(minutes) min"
    }
}

/// The human-readable summary of a result.
enum AnalysisText {
    /// A few lines: times, statistics, stages, events, breathing, audio health, score, the input's warnings.
    static func render(_ result: AnalysisResult, score: SleepScore?, title: String? = nil) -> String {
        let zone = result.timeZone
        var out: [String] = []
        if let title { out.append("== \(title) ==") }
        out.append(
            "Session \(result.sessionId.uuidString.lowercased())  \(Timestamps.iso8601(result.startTime)) → "
                + "\(Timestamps.iso8601(result.endTime))  (\(zone.identifier))")
        if let stats = result.statistics {
            out.append("Time in bed       \(Timestamps.duration(stats.timeInBed))")
            out.append("Total sleep       \(Timestamps.duration(stats.totalSleepDuration))")
            out.append("Sleep efficiency  \(stats.sleepEfficiency.map { String(format: "%.0f %%", $0 * 100) } ?? "–")")
            out.append("Sleep onset       \(Timestamps.duration(stats.sleepOnsetLatency)) after going to bed")
            out.append("Awakenings        \(stats.numberOfAwakenings.map(String.init) ?? "–")")
            out.append("Final wake        \(stats.finalWakeTime.map { Timestamps.clock($0, zone) } ?? "–")")
            if let durations = stats.sleepStageDurations {
                let parts = SleepStage.allCases.map { "\($0.rawValue) \(Timestamps.duration(durations[$0] ?? 0))" }
                out.append("Stages            " + parts.joined(separator: ", "))
            }
            out.append(
                "Snoring           \(Timestamps.duration(stats.snoreTime)) in \(stats.snoreSessions?.count ?? 0) "
                    + "session(s)")
        } else {
            out.append("Sleep staging     not run (the licence has no sleepStaging feature, or no epoch was complete)")
        }
        if let basis = result.stagingBasis { out.append("Staged from       \(basis.summary)") }
        if !result.sleepStageIntervals.isEmpty {
            let minutes = hypnogramSpanInMinutes(result)
            out.append("Hypnogram         " + hypnogramLine(result, minutes: minutes))
            out.append(
                "                  one character per \(minutes) min: W awake, R REM, - light, _ deep, blank unstaged")
        }
        var counts: [EventType: Int] = [:]
        for event in result.events { counts[event.type, default: 0] += 1 }
        let eventText = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        out.append("Events            " + (eventText.isEmpty ? "none" : eventText.joined(separator: ", ")))
        let rates = result.breathingRates.map(\.bpm).sorted()
        if rates.isEmpty {
            out.append("Breathing rate    no periodic breathing detected")
        } else {
            out.append(
                String(
                    format: "Breathing rate    median %.1f /min (%.1f–%.1f, %d measurements)", rates[rates.count / 2],
                    rates.first ?? 0, rates.last ?? 0, rates.count))
        }
        if let health = result.audioStatistics?.healthIntervals, !health.isEmpty {
            let problems = health.filter { $0.status != .healthy }
            out.append(
                "Audio health      "
                    + (problems.isEmpty
                        ? "healthy throughout"
                        : problems.map {
                            "\($0.status.rawValue) \(Timestamps.clock($0.interval.start, zone))–"
                                + "\(Timestamps.clock($0.interval.end, zone))"
                        }.joined(separator: ", ")))
        }
        for event in result.smartAlarmEvents {
            switch event.type {
            case .armed: out.append("Smart alarm       armed at \(Timestamps.clock(event.timestamp, zone))")
            case .triggered(let reason):
                out.append("Smart alarm       fired at \(Timestamps.clock(event.timestamp, zone)) (\(reason.rawValue))")
            }
        }
        if let score {
            out.append(
                String(
                    format: "Sleep score       %.0f / 100 (duration %.2f, quality %.2f, routine %.2f)",
                    score.total * 100, score.duration, score.quality, score.routine))
        } else if let reason = result.scoreUnavailableReason {
            out.append("Sleep score       none: \(reason.message)")
        }
        for warning in result.warnings { out.append("Warning           \(warning.message)") }
        return out.joined(separator: "\n") + "\n"
    }

    /// The spans a hypnogram character may stand for, in minutes.
    static let hypnogramSpans = [1, 2, 5, 10, 15, 30, 60]
    /// The most characters the hypnogram line has.
    static let hypnogramWidth = 96

    /// The shortest span that fits the night in `hypnogramWidth` characters.
    static func hypnogramSpanInMinutes(_ result: AnalysisResult) -> Int {
        let night = result.endTime.timeIntervalSince(result.startTime)
        return hypnogramSpans.first { Double($0 * 60 * hypnogramWidth) >= night } ?? 120
    }

    /// One character per `minutes` (the stage at the start of each span): `W` awake, `R` REM, `-` light, `_` deep,
    /// a blank where no stage was given.
    private static func hypnogramLine(_ result: AnalysisResult, minutes: Int) -> String {
        let symbols: [SleepStage: Character] = [.awake: "W", .rem: "R", .light: "-", .deep: "_"]
        var line = ""
        var time = result.startTime
        while time < result.endTime, line.count < hypnogramWidth {
            let stage = result.sleepStageIntervals.first { $0.interval.contains(time) }?.stage
            line.append(stage.flatMap { symbols[$0] } ?? " ")
            time = time.addingTimeInterval(Double(minutes * 60))
        }
        return line
    }
}

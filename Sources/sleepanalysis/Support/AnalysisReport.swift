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

    /// Writes `value` (a report, or reports by channel) as JSON and a line break to standard output, member by
    /// member and element by element (`StreamedJSON`): the same bytes as `makeEncoder().encode(value)` without the
    /// whole document in memory at once.
    static func printJSON(_ value: some Encodable) throws {
        try StreamedJSON.write(value, encoder: makeEncoder()) { FileHandle.standardOutput.write($0) }
        FileHandle.standardOutput.write(Data("\n".utf8))
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
}

/// The human-readable summary of a result.
enum AnalysisText {
    /// A few lines: times, statistics, stages, events, breathing, audio health, score, the input's warnings.
    static func render(_ result: AnalysisResult, score: SleepScore?, title: String? = nil) -> String {
        var out: [String] = []
        if let title { out.append("== \(title) ==") }
        out.append(
            "Session \(result.sessionId.uuidString.lowercased())  \(Timestamps.iso8601(result.startTime)) → "
                + "\(Timestamps.iso8601(result.endTime))  (\(result.timeZone.identifier))")
        out += NightReportFacts.statistics(result).map(line)
        if !result.sleepStageIntervals.isEmpty {
            let minutes = hypnogramSpanInMinutes(result)
            out.append(line(NightReportFact("Hypnogram", hypnogramLine(result, minutes: minutes))))
            out.append(
                line(
                    NightReportFact(
                        "", "one character per \(minutes) min: W awake, R REM, - light, _ deep, blank unstaged")))
        }
        out += NightReportFacts.observations(result).map(line)
        out.append(line(NightReportFacts.score(score, unavailable: result.scoreUnavailableReason)))
        for warning in result.warnings { out.append(line(NightReportFact("Warning", warning.message))) }
        return out.joined(separator: "\n") + "\n"
    }

    /// `Label             value`: the label padded to one column.
    private static func line(_ fact: NightReportFact) -> String {
        fact.label.padding(toLength: 18, withPad: " ", startingAt: 0) + fact.value
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

import Foundation
import SleepAnalysis

/// What `analyze` prints for one session: the library's `AnalysisResultDocument` (the result, its sleep score
/// and smart-alarm events, `schemaVersion`), written with `SleepAnalysisJSON`.
typealias AnalysisReport = AnalysisResultDocument

extension AnalysisResultDocument {
    /// Writes `value` (a report, or reports by channel) as JSON and a line break to standard output, member by
    /// member and element by element (`StreamedJSON`): the same bytes as `SleepAnalysisJSON.encode(value)` without
    /// the whole document in memory at once.
    ///
    /// - Throws: The encoder's errors; `CommandLineError` (exit 74) when standard output cannot be written.
    static func printJSON(_ value: some Encodable) throws {
        try StreamedJSON.write(value, encoder: SleepAnalysisJSON.makeEncoder()) { try StandardOutput.write($0) }
        try StandardOutput.write(Data("\n".utf8))
    }
}

/// ISO 8601 text for instants.
enum Timestamps {
    /// `2026-12-01T06:42:30.125Z` (`SleepAnalysisJSON.timestamp`).
    static func iso8601(_ date: Date) -> String { SleepAnalysisJSON.timestamp(date) }
}

/// The human-readable summary of a result.
enum AnalysisText {
    /// A few lines: times, statistics, stages, events, breathing, audio health, score, the input's warnings.
    static func render(_ result: AnalysisResult, score: SleepScore?, title: String? = nil) -> String {
        var out: [String] = []
        if let title { out.append("== \(title) ==") }
        out.append(
            "Session \(result.sessionId.uuidString)  \(Timestamps.iso8601(result.startTime)) → "
                + "\(Timestamps.iso8601(result.endTime))  (\(result.timeZone.identifier))")
        out += NightReportFacts.statistics(result).map(line)
        out += ConfidenceCard.facts(result).map(line)
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

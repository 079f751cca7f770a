import Foundation
import SleepAnalysis

/// The CSV tables of a result: `epochs`, `events`, `breathing` and `summary` (statistics and score, one row per
/// session). `analyze --format csv` prints epochs, an empty line, then events; with `--out-dir` it writes every
/// table to its own file, each with one header line.
enum AnalysisCSV {
    /// One table: a header and rows of fields.
    struct Table: Equatable {
        /// The file's name without `.csv`.
        var name: String
        /// The column names.
        var header: [String]
        /// The rows, as many fields as columns each.
        var rows: [[String]] = []

        /// The table as CSV text: the header, then one line per row, each ending in a newline.
        var text: String {
            ([header] + rows).map { $0.map(AnalysisCSV.field).joined(separator: ",") + "\n" }.joined()
        }

        /// This table's rows appended to `other`'s (same columns).
        func appending(_ other: Table) -> Table {
            Table(name: name, header: header, rows: rows + other.rows)
        }
    }

    /// What `analyze --format csv` prints for one session: epochs (`epoch,start,end,stage,awake,light,deep,rem`),
    /// an empty line, and events (`type,start,end,probability,source`), each row led by the channel when given.
    static func render(_ result: AnalysisResult, channel: String? = nil) -> String {
        epochs(result, channel: channel).text + "\n" + events(result, channel: channel).text
    }

    /// Every table of the sessions, each session's rows led by its channel when there are two.
    ///
    /// - Parameter reports: The sessions and their scores (one, or primary and secondary).
    /// - Returns: The epochs, events, breathing and summary tables.
    static func tables(_ reports: [(channel: String?, report: AnalysisReport)]) -> [Table] {
        let perSession = reports.map { entry in
            let channel = reports.count > 1 ? entry.channel : nil
            let result = entry.report.result
            return [
                epochs(result, channel: channel), events(result, channel: channel),
                breathing(result, channel: channel), summary(entry.report, channel: channel),
            ]
        }
        guard var merged = perSession.first else { return [] }
        for tables in perSession.dropFirst() {
            merged = zip(merged, tables).map { $0.appending($1) }
        }
        return merged
    }

    /// Writes each table to `DIR/<name>.csv`, creating the folder.
    ///
    /// - Throws: a `CommandLineError` (exit 1) naming the file that could not be written.
    static func write(_ tables: [Table], to directory: URL) throws {
        var file = directory
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for table in tables {
                file = directory.appendingPathComponent(table.name + ".csv")
                try Data(table.text.utf8).write(to: file, options: .atomic)
            }
        } catch {
            throw CommandLineError(
                kind: .outputFailed, message: "cannot write \(file.path): \(error.localizedDescription)")
        }
    }

    // MARK: - Tables

    /// One row per 30-second epoch: the stage and its probabilities.
    static func epochs(_ result: AnalysisResult, channel: String?) -> Table {
        let rows = result.sleepStagePredictions.enumerated().map { index, epoch in
            let p = epoch.probabilities
            return [
                String(index), Timestamps.iso8601(epoch.interval.start), Timestamps.iso8601(epoch.interval.end),
                epoch.stage.rawValue,
            ] + [p.awake, p.light, p.deep, p.rem].map { String(format: "%.4f", $0) }
        }
        return led(
            Table(
                name: "epochs", header: ["epoch", "start", "end", "stage", "awake", "light", "deep", "rem"], rows: rows),
            by: channel)
    }

    /// One row per event.
    static func events(_ result: AnalysisResult, channel: String?) -> Table {
        let rows = result.events.map { event in
            [
                event.type.rawValue, Timestamps.iso8601(event.interval.start), Timestamps.iso8601(event.interval.end),
                String(format: "%.3f", event.probability), event.source.rawValue,
            ]
        }
        return led(
            Table(name: "events", header: ["type", "start", "end", "probability", "source"], rows: rows), by: channel)
    }

    /// One row per breathing-rate measurement.
    static func breathing(_ result: AnalysisResult, channel: String?) -> Table {
        let rows = result.breathingRates.map { rate in
            [
                Timestamps.iso8601(rate.timestamp), String(format: "%.2f", rate.bpm),
                String(format: "%.3f", rate.confidence),
            ]
        }
        return led(Table(name: "breathing", header: ["time", "bpm", "confidence"], rows: rows), by: channel)
    }

    /// One row: the session, its statistics (durations in seconds, empty when not computed) and its score (0…1; empty when the night cannot be scored).
    static func summary(_ report: AnalysisReport, channel: String?) -> Table {
        let result = report.result
        let stats = result.statistics
        func number(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "" }
        let stages = SleepStage.allCases.map { number(stats?.sleepStageDurations?[$0]) }
        let row =
            [
                result.sessionId.uuidString, Timestamps.iso8601(result.startTime),
                Timestamps.iso8601(result.endTime), result.timeZone.identifier, number(stats?.timeInBed),
                number(stats?.totalSleepDuration), number(stats?.sleepOnsetLatency),
                number(stats?.wakeAfterSleepOnset), stats?.sleepEfficiency.map { String(format: "%.4f", $0) } ?? "",
                stats?.numberOfAwakenings.map(String.init) ?? "", stats?.finalWakeTime.map(Timestamps.iso8601) ?? "",
            ] + stages + [
                number(stats?.snoreTime), stats?.snoreSessions.map { String($0.count) } ?? "",
                String(result.events.count), String(result.breathingRates.count),
            ]
            + (report.score.map { [$0.total, $0.duration, $0.quality, $0.routine] } ?? []).map {
                String(format: "%.4f", $0)
            } + (report.score == nil ? ["", "", "", ""] : [])
        let header =
            [
                "session", "start", "end", "time_zone", "time_in_bed_s", "total_sleep_s", "sleep_onset_latency_s",
                "wake_after_sleep_onset_s", "sleep_efficiency", "awakenings", "final_wake",
            ] + SleepStage.allCases.map { "\($0.rawValue)_s" } + [
                "snore_time_s", "snore_sessions", "events", "breathing_measurements", "score", "score_duration",
                "score_quality", "score_routine",
            ]
        return led(Table(name: "summary", header: header, rows: [row]), by: channel)
    }

    /// The table with a leading `channel` column when `channel` is given.
    private static func led(_ table: Table, by channel: String?) -> Table {
        guard let channel else { return table }
        return Table(name: table.name, header: ["channel"] + table.header, rows: table.rows.map { [channel] + $0 })
    }

    /// A field, quoted when it holds a comma, a quote or a line break.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

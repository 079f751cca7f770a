import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis history [--store DIR | --database URL --subject ID] [--from DATE] [--to DATE] [--format json|text]`: the nights in the session
/// store that overlap a date range, earliest first.
///
/// JSON output (`NightHistoryDocument`, `Schemas/night-history.schema.json`): `{"schemaVersion", "nights": [...]}`,
/// each night with `sessionId`, `startTime`, `endTime` (ISO 8601
/// UTC), `timeZone` (identifier), `timeInBed`, `totalSleepDuration`, `sleepOnsetLatency`, `wakeAfterSleepOnset`,
/// `snoreTime` (seconds), `sleepEfficiency` (0...1), `numberOfAwakenings`, `eventCount`, `snoringEventCount`,
/// `meanBreathingRate` (breaths per minute); a figure the night lacks is omitted. A night whose stored bytes do not
/// decode is left out with a warning on standard error naming it and why. The SQLite store is opened read-only; with
/// `--database`/`--subject` the nights come from the subject's PostgreSQL session store (where workers save them).
enum HistoryCommand: Command {
    static let name = "history"
    static let summary = "list the nights in the session store"
    /// What it accepts: its specification.
    static var syntax: CommandSyntax { .options(specification) }
    static let specification = ArgumentSpecification(
        options: DateRangeArguments.options.union(StoreDirectoryArgument.readingOptions).union(["format"]),
        shortNames: ["s": "store", "f": "format"],
        usage: """
            usage: sleepanalysis history [--store DIR | --database URL --subject ID] [--from DATE] [--to DATE]
                                         [--format json|text]

            \(StoreDirectoryArgument.readingUsageLines)
                  --from DATE          only nights that end after DATE (ISO 8601 day or time)
                  --to DATE            only nights that start before DATE (a day: its end)
              -f, --format json|text   output format (default text)

            """)

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        let range = try DateRangeArguments.range(parsed)
        let (nights, unreadable) = try await StoreDirectoryArgument.openExisting(parsed).readableNights(in: range)
        StoreDirectoryArgument.warn(skipping: unreadable)
        if format == "json" {
            try StandardOutput.print(try json(nights))
        } else {
            try StandardOutput.print(text(nights), terminator: "")
        }
    }

    static func json(_ nights: [StoredNight]) throws -> String {
        String(decoding: try SleepAnalysisJSON.encode(NightHistoryDocument(nights)), as: UTF8.self)
    }

    static func text(_ nights: [StoredNight]) -> String {
        guard !nights.isEmpty else { return "no nights in this range\n" }
        var lines = ["night        start  end    in bed  asleep  effic.  events  session"]
        for night in nights {
            let statistics = night.statistics
            let columns = [
                clock(night.startTime, night.timeZone, format: "yyyy-MM-dd"),
                clock(night.startTime, night.timeZone, format: "HH:mm"),
                clock(night.endTime, night.timeZone, format: "HH:mm"),
                hours(night.endTime.timeIntervalSince(night.startTime)),
                statistics?.totalSleepDuration.map(hours) ?? "-",
                statistics?.sleepEfficiency.map { String(format: "%.0f%%", $0 * 100) } ?? "-",
                String(night.eventCount),
                night.sessionId.uuidString,
            ]
            let widths = [12, 6, 6, 7, 7, 7, 7, 0]
            lines.append(
                zip(columns, widths).map { $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0) }
                    .joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A date in the night's own time zone.
    private static func clock(_ date: Date, _ timeZone: TimeZone, format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        return formatter.string(from: date)
    }

    /// Seconds as `h:mm`.
    private static func hours(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return String(format: "%d:%02d", minutes / 60, minutes % 60)
    }
}

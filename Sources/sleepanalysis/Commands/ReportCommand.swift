import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis report [--store DIR | --database URL --subject ID] [--from DATE] [--to DATE] --out FILE.html`:
/// the trends page (`NightTrendsHTML`) of the stored nights in a date range: nights over weeks, averages, and the
/// last night against the person's own baseline.
///
/// Each night is scored with the 28 days before the range as history, as `analyze` scores it. A night whose stored
/// bytes do not decode is left out with a warning naming it. No nights in the range: exit 65, nothing written.
enum ReportCommand: Command {
    static let name = "report"
    static let summary = "write the trends page of the stored nights (HTML)"
    /// What it accepts: its specification.
    static var syntax: CommandSyntax { .options(specification) }
    static let specification = ArgumentSpecification(
        options: DateRangeArguments.options.union(StoreDirectoryArgument.readingOptions).union(["out"]),
        shortNames: ["s": "store", "o": "out"],
        usage: """
            usage: sleepanalysis report [--store DIR | --database URL --subject ID] [--from DATE] [--to DATE]
                                        --out FILE.html

            \(StoreDirectoryArgument.readingUsageLines)
                  --from DATE          only nights that end after DATE (ISO 8601 day or time)
                  --to DATE            only nights that start before DATE (a day: its end)
              -o, --out FILE.html      where the page goes: one self-contained HTML file (total sleep, efficiency,
                                       score, snoring, breathing rate and sleep midpoint night by night, their
                                       averages, the last night against the nights before it)

            """)

    /// The days before the range whose nights are the first nights' score history.
    static let historyDays = 28.0

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        guard let path = parsed.option("out") else {
            throw CommandLineError.usage("give --out FILE.html: where the trends page goes", usage: parsed.usage)
        }
        try OutputDestination.checkFile(path, option: "out")
        let range = try DateRangeArguments.range(parsed)
        let store = try StoreDirectoryArgument.openExisting(parsed)
        let (results, unreadable) = try await store.readableResults(in: range)
        StoreDirectoryArgument.warn(skipping: unreadable)
        guard let first = results.first else {
            throw CommandLineError.badData("no readable nights in this range: nothing to report")
        }
        let historyStart = max(.distantPast, first.startTime.addingTimeInterval(-historyDays * 86_400))
        let earlier = try await store.readableResults(in: DateInterval(start: historyStart, end: first.startTime))
            .results
            .filter { result in !results.contains { $0.sessionId == result.sessionId } }
        let html = NightTrendsHTML.render(NightTrends(results: results, history: earlier))
        do {
            try Data(html.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandLineError(kind: .failure, message: "cannot write \(path): \(error.localizedDescription)")
        }
        FileHandle.standardError.write(
            Data(
                "sleepanalysis report: \(results.count) \(results.count == 1 ? "night" : "nights") written to \(path)\n"
                    .utf8))
    }
}

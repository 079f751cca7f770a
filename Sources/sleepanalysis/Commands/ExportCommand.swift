import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis export --healthkit [--store DIR | --database URL --subject ID] [--session ID] [--from DATE] [--to DATE] [--format json|csv]`:
/// the stored nights as HealthKit sleep-analysis samples (one `inBed` per night, then one per stage run).
///
/// JSON output: an array of `{"sessionId", "value", "valueName", "startDate", "endDate", "timeZone"}` (values are
/// HealthKit's: inBed 0, asleepUnspecified 1, awake 2, asleepCore 3, asleepDeep 4, asleepREM 5). CSV: the header
/// `session_id,value,value_name,start_date,end_date,time_zone`, then one line per sample. A night whose stored
/// bytes do not decode is left out with a warning on standard error. The SQLite store is opened read-only; with
/// `--database`/`--subject` the nights come from the subject's PostgreSQL session store (where workers save them).
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "export stored nights (--healthkit: HealthKit sleep-analysis samples)"
    /// What it accepts: its specification.
    static var syntax: CommandSyntax { .options(specification) }
    static let specification = ArgumentSpecification(
        options: DateRangeArguments.options.union(StoreDirectoryArgument.readingOptions).union(["session", "format"]),
        flags: ["healthkit"],
        shortNames: ["s": "store", "f": "format"],
        usage: """
            usage: sleepanalysis export --healthkit [--store DIR | --database URL --subject ID] [--session ID]
                                        [--from DATE] [--to DATE] [--format json|csv]

                  --healthkit          export HealthKit sleep-analysis category samples
            \(StoreDirectoryArgument.readingUsageLines)
                  --session ID         only this session (default: every night in the range)
                  --from DATE          only nights that end after DATE (ISO 8601 day or time)
                  --to DATE            only nights that start before DATE (a day: its end)
              -f, --format json|csv    output format (default json)

            """)

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        guard parsed.flag("healthkit") else {
            throw CommandLineError.usage("choose what to export: --healthkit", usage: specification.usage)
        }
        let format = try parsed.choice("format", from: ["json", "csv"], default: "json")
        let store = try StoreDirectoryArgument.openExisting(parsed)
        let results = try selectedResults(store, parsed)
        let samples = results.flatMap { store.healthKitSamples(for: $0) }
        if format == "json" {
            try StandardOutput.print(String(decoding: try HealthKitExport.json(samples), as: UTF8.self))
        } else {
            try StandardOutput.print(HealthKitExport.csv(samples), terminator: "")
        }
    }

    /// The one session asked for, or every night in the range, earliest first.
    private static func selectedResults(_ store: SessionStore, _ parsed: ParsedArguments) throws -> [AnalysisResult] {
        if let text = parsed.option("session") {
            guard let sessionId = UUID(uuidString: text) else {
                throw CommandLineError.usage("--session: '\(text)' is not a session id", usage: parsed.usage)
            }
            guard let result = try store.result(sessionId: sessionId) else {
                throw CommandLineError(kind: .failure, message: "no session \(text) in the store", usage: nil)
            }
            return [result]
        }
        let range = try DateRangeArguments.range(parsed)
        let (results, unreadable) = try store.readableResults(in: range)
        StoreDirectoryArgument.warn(skipping: unreadable)
        return results
    }
}

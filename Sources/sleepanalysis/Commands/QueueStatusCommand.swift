import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `sleepanalysis queue status [--format json|text]`: jobs per state and the job waiting longest.
///
/// JSON (`SleepAnalysisJSON`, `Schemas/queue-status.schema.json`): `{"schemaVersion": 1, "counts": {"cancelled": 0, "done": 3, "failed": 0, "queued": 2, "running": 1},
/// "oldestWaiting": {"id": 17, "submittedAt": "2026-12-01T07:00:00.000Z", "waitingSeconds": 12.5}}`;
/// `oldestWaiting` is omitted when nothing waits.
enum QueueStatusCommand {
    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options.union(["format"]),
        usage: """
            usage: sleepanalysis queue status [--format json|text] [--database URL]

            """)

    /// The JSON form of the status.
    struct Report: Encodable {
        /// One waiting job.
        struct Waiting: Encodable {
            var id: Int64
            var submittedAt: String
            var waitingSeconds: Double
        }

        var schemaVersion = SleepAnalysisJSON.schemaVersion
        var counts: [String: Int]
        var oldestWaiting: Waiting?
    }

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        let queue = try await DatabaseArgument.openQueue(parsed)
        let status = try await queue.status()
        await queue.close()
        let report = Report(
            counts: Dictionary(uniqueKeysWithValues: status.counts.map { ($0.key.rawValue, $0.value) }),
            oldestWaiting: status.oldestWaiting.map {
                Report.Waiting(
                    id: $0.id, submittedAt: Timestamps.iso8601($0.submittedAt), waitingSeconds: $0.waitingSeconds)
            })
        if format == "json" {
            try StandardOutput.print(String(decoding: try SleepAnalysisJSON.encode(report), as: UTF8.self))
            return
        }
        for state in NightJobState.allCases {
            try StandardOutput.print(
                state.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0) + String(status.count(state)))
        }
        if let waiting = report.oldestWaiting {
            try StandardOutput.print(
                "oldest waiting: job \(waiting.id), submitted \(waiting.submittedAt) (\(Int(waiting.waitingSeconds)) s ago)"
            )
        }
    }
}

import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis queue result JOB_ID`: a done job's result, as JSON like `analyze --format json` prints it.
enum QueueResultCommand {
    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options,
        positionals: ["JOB_ID"],
        usage: """
            usage: sleepanalysis queue result JOB_ID [--database URL]

            """)

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let id = try DatabaseArgument.jobId(parsed)
        let queue = try await DatabaseArgument.openQueue(parsed)
        let job = try await queue.job(id: id)
        let result = try await queue.result(jobId: id)
        await queue.close()
        guard let result else {
            let state =
                job.map { "is \($0.state.rawValue)" + ($0.lastError.map { ": \($0)" } ?? "") } ?? "does not exist"
            throw CommandLineError(kind: .failure, message: "job \(id) has no result: it \(state)")
        }
        let report = AnalysisReport(result: result, score: SleepScoring.score(result: result, history: []))
        try AnalysisReport.printJSON(report)
    }
}

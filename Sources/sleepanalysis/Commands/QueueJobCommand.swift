import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis queue retry JOB_ID` (a failed or cancelled job back in the queue) and `queue cancel JOB_ID`
/// (a queued or running job cancelled; its worker stops at its next lease renewal).
enum QueueJobCommand {
    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options,
        positionals: ["retry|cancel", "JOB_ID"],
        usage: """
            usage: sleepanalysis queue retry JOB_ID [--database URL]
                   sleepanalysis queue cancel JOB_ID [--database URL]

            """)

    /// Runs the command (`arguments` start with `retry` or `cancel`).
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let id = try DatabaseArgument.jobId(parsed, at: 1)
        let queue = try await DatabaseArgument.openQueue(parsed)
        let job = try await queue.job(id: id)
        let changed =
            parsed.positionals[0] == "retry" ? try await queue.retry(jobId: id) : try await queue.cancel(jobId: id)
        await queue.close()
        guard let job else { throw CommandLineError(kind: .failure, message: "no job \(id)") }
        guard changed else {
            throw CommandLineError(
                kind: .failure, message: "job \(id) is \(job.state.rawValue): cannot \(parsed.positionals[0]) it")
        }
        print(parsed.positionals[0] == "retry" ? "job \(id) queued again" : "job \(id) cancelled")
    }
}

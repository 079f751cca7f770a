import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `sleepanalysis worker --database URL [--concurrency N] …`: analyses nights from the PostgreSQL queue until
/// stopped. SIGTERM or SIGINT: claim no more and finish the running nights (up to `--drain-seconds`, then give
/// them back); a second signal gives them back at once.
enum WorkerCommand: Command {
    static let name = "worker"
    static let summary = "analyse nights from the PostgreSQL queue until stopped (SIGTERM finishes or releases them)"
    /// What it accepts, for help and completion.
    static var syntax: CommandSyntax { .options(specification) }

    static let specification = ArgumentSpecification(
        options: [
            DatabaseArgument.option, "concurrency", "lease-seconds", "poll-seconds", "drain-seconds", "name", "pace",
            "storage", "log-level", CommandLineLicence.option,
        ],
        flags: ["exit-when-idle"],
        usage: """
            usage: sleepanalysis worker [--database URL] [options]

            \(DatabaseArgument.usageLine)
              --concurrency N           nights analysed at once, each by its own analyzer (default 1)
              --lease-seconds S         a job's lease; a dead worker's job is taken over after it (default 60)
              --poll-seconds S          look at an empty queue this often (NOTIFY wakes it sooner; default 5)
              --drain-seconds S         on SIGTERM, finish running nights for up to S seconds before releasing
                                        them (default 30; a second signal releases at once)
              --exit-when-idle          stop once no job is ready (batch runs)
              --name NAME               the worker's name in the queue (default HOST-PID)
              --storage DIR             where each night's analyzer keeps its state (default: a temporary
                                        directory; removed after each night)
              --pace realtime|N         replay speed (default: as fast as possible)
              --log-level LEVEL         debug, info (default), warning or error
              --api-key KEY             licence key (default $SLEEPANALYSIS_API_KEY, else a local evaluation
                                        licence)

            """)

    /// Runs the worker until SIGTERM or SIGINT (or, with `--exit-when-idle`, until nothing is left to claim).
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let configuration = try makeConfiguration(parsed)
        let queue = try await DatabaseArgument.openQueue(parsed)
        let worker = NightWorker(queue: queue, configuration: configuration)
        let signals = TerminationSignals { count in
            Task { await worker.stop(releasingJobs: count > 1) }
        }
        defer { signals.cancel() }
        try await worker.run()
        await queue.close()
    }

    private static func makeConfiguration(_ parsed: ParsedArguments) throws -> NightWorkerConfiguration {
        let licence = try CommandLineLicence.resolve(parsed)
        let levels: [String: LogLevel] = ["debug": .debug, "info": .info, "warning": .warning, "error": .error]
        let level = try parsed.choice("log-level", from: ["debug", "info", "warning", "error"], default: "info")
        return NightWorkerConfiguration(
            apiKey: licence.apiKey, trustedIssuerKeys: licence.trustedKeys, name: parsed.option("name"),
            concurrency: try positive(parsed, "concurrency", default: 1, as: Int.self),
            leaseDuration: try positive(parsed, "lease-seconds", default: 60, as: Double.self),
            idlePollInterval: try positive(parsed, "poll-seconds", default: 5, as: Double.self),
            drainTimeout: try parsed.option("drain-seconds", as: Double.self).map { max(0, $0) } ?? 30,
            exitsWhenIdle: parsed.flag("exit-when-idle"),
            storageRoot: parsed.option("storage").map { URL(fileURLWithPath: $0, isDirectory: true) },
            pace: try ReplayPaceArgument.pace(parsed), logLevel: levels[level] ?? .info)
    }

    private static func positive<T: LosslessStringConvertible & Comparable & ExpressibleByIntegerLiteral>(
        _ parsed: ParsedArguments, _ name: String, default value: T, as type: T.Type
    ) throws -> T {
        guard let given = try parsed.option(name, as: type) else { return value }
        guard given > 0 else { throw CommandLineError.usage("--\(name) must be positive, not \(given)") }
        return given
    }
}

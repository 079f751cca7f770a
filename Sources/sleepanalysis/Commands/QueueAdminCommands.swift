import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `sleepanalysis queue migrate`: creates or upgrades the queue's, the session store's and the night service's
/// tables — the only command that issues DDL, run by the owner role before workers of a new version start.
enum QueueMigrateCommand {
    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options,
        usage: """
            usage: sleepanalysis queue migrate [--database URL | --database-file FILE]

            Creates or upgrades the night queue's, the session store's and the night service's tables (as the database
            owner; every other command only checks their version). Safe while other processes run it too. Then grant
            the roles their rights: psql -f Tools/postgres/roles.sql (see the Fleet article).
            \(DatabaseArgument.usageLine)

            """)

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let address = try DatabaseArgument.address(parsed)
        let steps = try await NightQueue.migrate(address: address) + [try await NightService.migrate(address: address)]
        for step in steps {
            let change =
                step.fromVersion == step.toVersion
                ? "at version \(step.toVersion), nothing to do" : "version \(step.fromVersion) → \(step.toVersion)"
            try StandardOutput.print("\(step.schema): \(change)")
        }
    }
}

/// `sleepanalysis queue list [--state S,S…] [--queue NAME] [--limit N] [--format json|text]`: jobs with their last
/// error.
///
/// JSON (`SleepAnalysisJSON`, `Schemas/queue-list.schema.json`): `{"schemaVersion": 1, "jobs": [{"id": 7,
/// "state": "failed", "queue": "default", "priority": 0, "subject": "ana", "audio": "/srv/nights/ana.flac",
/// "attempts": 1, "maxAttempts": 5, "submittedAt": "…", "availableAt": "…", "finishedAt": "…",
/// "lastError": "…"}]}`; URLs are written without their secrets.
enum QueueListCommand {
    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options.union(["state", "queue", "limit", "format"]),
        usage: """
            usage: sleepanalysis queue list [--state S[,S…]] [--queue NAME] [--limit N] [--format json|text]

              --state S[,S…]            queued, running, done, failed, cancelled (default all)
              --queue NAME              one named queue (default all)
              --limit N                 at most N jobs, oldest first (default 100)
              --format json|text        text (default): one line a job with its last error
            \(DatabaseArgument.usageLine)

            """)

    /// One job in the JSON document.
    struct Job: Encodable {
        var id: Int64
        var state: String
        var queue: String
        var priority: Int
        var subject: String
        var audio: String
        var accelerometer: String?
        var heartRate: String?
        var startTime: String
        var attempts: Int
        var maxAttempts: Int
        var submittedAt: String
        var availableAt: String
        var startedAt: String?
        var finishedAt: String?
        var leasedBy: String?
        var idempotencyKey: String?
        var lastError: String?
    }

    /// The JSON document.
    struct Document: Encodable {
        var schemaVersion = SleepAnalysisJSON.schemaVersion
        var jobs: [Job]
    }

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        let states = try (parsed.option("state") ?? "").split(separator: ",").map { name in
            guard let state = NightJobState(rawValue: String(name).trimmingCharacters(in: .whitespaces)) else {
                throw CommandLineError.usage(
                    "--state takes \(NightJobState.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            return state
        }
        let limit = try parsed.option("limit", as: Int.self) ?? 100
        guard limit > 0 else { throw CommandLineError.usage("--limit must be positive") }
        let queue = try await DatabaseArgument.openQueue(parsed)
        let jobs = try await queue.jobs(in: states, queue: parsed.option("queue"), limit: limit)
        await queue.close()
        let document = Document(jobs: jobs.map(job))
        if format == "json" {
            try StandardOutput.print(String(decoding: try SleepAnalysisJSON.encode(document), as: UTF8.self))
            return
        }
        for job in document.jobs {
            var line = "\(job.id)\t\(job.state)\t\(job.queue)\t\(job.subject)\t\(job.attempts)/\(job.maxAttempts)"
            line += "\t\(job.finishedAt ?? job.availableAt)\t\(job.audio)"
            if let error = job.lastError { line += "\t\(error)" }
            try StandardOutput.print(line)
        }
    }

    private static func job(_ job: NightJob) -> Job {
        let night = job.submission
        return Job(
            id: job.id, state: job.state.rawValue, queue: night.queue, priority: night.priority,
            subject: night.subjectId,
            audio: shown(night.audio), accelerometer: night.accelerometer.map(shown),
            heartRate: night.heartRate.map(shown),
            startTime: SleepAnalysisJSON.timestamp(night.startTime), attempts: job.attempts,
            maxAttempts: night.maxAttempts, submittedAt: SleepAnalysisJSON.timestamp(job.submittedAt),
            availableAt: SleepAnalysisJSON.timestamp(job.availableAt),
            startedAt: job.startedAt.map(SleepAnalysisJSON.timestamp),
            finishedAt: job.finishedAt.map(SleepAnalysisJSON.timestamp), leasedBy: job.leasedBy,
            idempotencyKey: job.idempotencyKey, lastError: job.lastError)
    }

    /// A path as it is, a URL without its secrets.
    private static func shown(_ input: URL) -> String {
        input.isFileURL ? input.path : RemoteInputURL.redacted(input)
    }
}

/// `sleepanalysis queue prune --older-than DURATION [--including-nights]`: removes finished jobs.
enum QueuePruneCommand {
    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options.union(["older-than"]),
        flags: ["including-nights"],
        usage: """
            usage: sleepanalysis queue prune --older-than DURATION [--including-nights]

              --older-than DURATION     remove done, failed and cancelled jobs that ended longer ago than this
                                        (90s, 15m, 12h, 30d, 2w), with their results and checkpoints
              --including-nights        also delete their nights from the session store (tombstones left for
                                        synchronising clients); by default the stored nights are kept
            \(DatabaseArgument.usageLine)

            Queued and running jobs are never removed. Prints what was removed.

            """)

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let age = try DurationArgument.seconds(try parsed.required("older-than"), option: "older-than")
        let queue = try await DatabaseArgument.openQueue(parsed)
        let pruned: NightQueuePruning
        do {
            pruned = try await queue.prune(olderThan: age, includingNights: parsed.flag("including-nights"))
        } catch {
            await queue.close()
            throw error
        }
        await queue.close()
        try StandardOutput.print(
            "pruned \(pruned.jobs) jobs, \(pruned.results) results, \(pruned.checkpoints) checkpoints, "
                + "\(pruned.nights) stored nights")
    }
}

/// `sleepanalysis queue metrics`: the queue's Prometheus metrics (jobs by named queue and state, the age of the
/// job ready longest), for a textfile collector or a look; each worker serves its own beside them.
enum QueueMetricsCommand {
    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options,
        usage: """
            usage: sleepanalysis queue metrics [--database URL | --database-file FILE]

            Prints the queue's metrics in the Prometheus text format.
            \(DatabaseArgument.usageLine)

            """)

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let queue = try await DatabaseArgument.openQueue(parsed)
        let text = try await queue.metricsText()
        await queue.close()
        try StandardOutput.write(Data(text.utf8))
    }
}

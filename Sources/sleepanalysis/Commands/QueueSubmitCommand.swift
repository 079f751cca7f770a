import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `sleepanalysis queue submit AUDIO --start ISO8601 --subject ID …`: adds a night to the queue and prints its
/// job id — the existing job's when the same night (the same idempotency key) was submitted before. Each input is
/// a path, stored absolute (workers must see the file at the same path: a shared file system, under their
/// `--input-root`), or an `http(s)` URL the worker downloads.
enum QueueSubmitCommand {
    static let specification = ArgumentSpecification(
        options: DatabaseArgument.options.union(InputPolicyArgument.options).union([
            "accelerometer", "heart-rate", "start", "subject", "max-attempts", "queue", "priority", "run-at", "key",
        ]),
        positionals: ["AUDIO"],
        usage: """
            usage: sleepanalysis queue submit AUDIO --start ISO8601 --subject ID [options]

              AUDIO                     the night's audio file: a path every worker can read, or an http(s) URL
                                        the worker downloads (resuming a dropped download)
              --start ISO8601           when the recording began
              --subject ID              whose night it is (not empty)
              --accelerometer CSV|URL   accelerometer readings: timestamp,x,y,z
              --heart-rate CSV|URL      heart rate from a wearable: timestamp,bpm
              --max-attempts N          how often workers may take it before it fails (default 5)
              --queue NAME              the named queue (default 'default'; letters, digits, '.', '_', '-')
              --priority N              higher is claimed first, whatever the age (default 0; a re-analysis
                                        backlog below 0 never delays tonight's nights)
              --run-at ISO8601          no worker takes it before then
              --key KEY                 idempotency key: a night submitted again with the same key returns the
                                        existing job (default: from the subject, queue, start and the inputs'
                                        content)
            \(InputPolicyArgument.usageLines)
            \(DatabaseArgument.usageLine)

            Prints the job id; a night already queued prints the existing job's id (and says so on standard error).
            Exit 64 for a bad command line (no --start, an empty --subject), 65 for an input outside the
            --input-roots.

            """)

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let night = try submission(parsed)
        let policy = try InputPolicyArgument.policy(parsed, defaultRoots: nil)
        let queue = try await DatabaseArgument.openQueue(parsed)
        let enqueued: NightEnqueued
        do {
            enqueued = try await queue.enqueue(night, policy: policy)
        } catch let error as RemoteInputError {
            await queue.close()
            throw CommandLineError.usage(error.description)
        } catch {
            await queue.close()
            throw error
        }
        await queue.close()
        if !enqueued.isNew {
            CommandRunner.printError("sleepanalysis queue submit: job \(enqueued.id) already holds this night\n")
        }
        try StandardOutput.print(String(enqueued.id))
    }

    /// The night the command line describes.
    ///
    /// - Throws: A usage error for a missing or malformed option or an empty subject.
    static func submission(_ parsed: ParsedArguments) throws -> NightSubmission {
        let start = try date(parsed, "start", required: true) ?? Date()
        let maxAttempts = try parsed.option("max-attempts", as: Int.self) ?? 5
        guard maxAttempts > 0 else { throw CommandLineError.usage("--max-attempts must be positive") }
        let subject = try parsed.required("subject")
        guard !subject.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw CommandLineError.usage("--subject must not be empty")
        }
        let key = parsed.option("key")
        if let key, key.isEmpty { throw CommandLineError.usage("--key must not be empty") }
        return NightSubmission(
            audio: try input(parsed.positionals[0]), accelerometer: try parsed.option("accelerometer").map(input),
            heartRate: try parsed.option("heart-rate").map(input), startTime: start, subjectId: subject,
            maxAttempts: maxAttempts, queue: parsed.option("queue") ?? NightSubmission.defaultQueue,
            priority: try parsed.option("priority", as: Int.self) ?? 0,
            runAt: try date(parsed, "run-at", required: false),
            idempotencyKey: key)
    }

    private static func date(_ parsed: ParsedArguments, _ name: String, required: Bool) throws -> Date? {
        guard let text = required ? try parsed.required(name) : parsed.option(name) else { return nil }
        guard let date = ISO8601DateTimeParser(syntax: .timestamp).date(from: text) else {
            throw CommandLineError.usage("--\(name) must be an ISO 8601 date and time, not '\(text)'")
        }
        return date
    }

    /// An input argument: an `http(s)` URL when written as a URL, else a path made absolute.
    ///
    /// - Throws: A usage error when it is written as a URL that is malformed or not `http(s)`.
    private static func input(_ text: String) throws -> URL {
        guard RemoteInputURL.looksLikeURL(text) else { return URL(fileURLWithPath: text).standardizedFileURL }
        do {
            return try RemoteInputURL.parse(text)
        } catch let error as RemoteInputError {
            throw CommandLineError.usage(error.description)
        }
    }
}

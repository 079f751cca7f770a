import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// `sleepanalysis queue submit AUDIO --start ISO8601 --subject ID …`: adds a night to the queue and prints its
/// job id. Each input is a path, stored absolute (workers must see the file at the same path: a shared file
/// system), or an `http(s)` URL the worker downloads; a URL that is malformed or of another scheme is a usage error.
enum QueueSubmitCommand {
    static let specification = ArgumentSpecification(
        options: [DatabaseArgument.option, "accelerometer", "heart-rate", "start", "subject", "max-attempts"],
        positionals: ["AUDIO"],
        usage: """
            usage: sleepanalysis queue submit AUDIO --start ISO8601 --subject ID [options]

              AUDIO                     the night's audio file: a path every worker can read, or an http(s) URL
                                        the worker downloads (resuming a dropped download)
              --start ISO8601           when the recording began
              --subject ID              whose night it is
              --accelerometer CSV|URL   accelerometer readings: timestamp,x,y,z
              --heart-rate CSV|URL      heart rate from a wearable: timestamp,bpm
              --max-attempts N          how often workers may take it before it fails (default 5)
            \(DatabaseArgument.usageLine)

            """)

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let startText = try parsed.required("start")
        guard let start = ISO8601DateTimeParser(syntax: .timestamp).date(from: startText) else {
            throw CommandLineError.usage("--start must be an ISO 8601 date and time, not '\(startText)'")
        }
        let maxAttempts = try parsed.option("max-attempts", as: Int.self) ?? 5
        guard maxAttempts > 0 else { throw CommandLineError.usage("--max-attempts must be positive") }
        let night = NightSubmission(
            audio: try input(parsed.positionals[0]), accelerometer: try parsed.option("accelerometer").map(input),
            heartRate: try parsed.option("heart-rate").map(input), startTime: start,
            subjectId: try parsed.required("subject"), maxAttempts: maxAttempts)
        let queue = try await DatabaseArgument.openQueue(parsed)
        print(try await queue.submit(night))
        await queue.close()
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

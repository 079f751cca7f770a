import Foundation
import SleepAnalysis

/// `sleepanalysis queue submit AUDIO --start ISO8601 --subject ID …`: adds a night to the queue and prints its
/// job id. Paths are stored absolute: workers must see the files at the same paths (a shared file system).
enum QueueSubmitCommand {
    static let specification = ArgumentSpecification(
        options: [DatabaseArgument.option, "accelerometer", "heart-rate", "start", "subject", "max-attempts"],
        positionals: ["AUDIO"],
        usage: """
            usage: sleepanalysis queue submit AUDIO --start ISO8601 --subject ID [options]

              AUDIO                     the night's audio file, at a path every worker can read
              --start ISO8601           when the recording began
              --subject ID              whose night it is
              --accelerometer CSV       accelerometer readings: timestamp,x,y,z
              --heart-rate CSV          heart rate from a wearable: timestamp,bpm
              --max-attempts N          how often workers may take it before it fails (default 5)
            \(DatabaseArgument.usageLine)

            """)

    /// Runs the command.
    static func run(_ arguments: [String]) async throws {
        let parsed = try ArgumentParser.parse(arguments, specification)
        if parsed.flag("help") {
            print(specification.usage, terminator: "")
            return
        }
        let startText = try parsed.required("start")
        guard let start = ISO8601DateTimeParser(syntax: .timestamp).date(from: startText) else {
            throw CommandLineError.usage("--start must be an ISO 8601 date and time, not '\(startText)'")
        }
        let maxAttempts = try parsed.option("max-attempts", as: Int.self) ?? 5
        guard maxAttempts > 0 else { throw CommandLineError.usage("--max-attempts must be positive") }
        let night = NightSubmission(
            audio: absolute(parsed.positionals[0]), accelerometer: parsed.option("accelerometer").map(absolute),
            heartRate: parsed.option("heart-rate").map(absolute), startTime: start,
            subjectId: try parsed.required("subject"), maxAttempts: maxAttempts)
        let queue = try await DatabaseArgument.openQueue(parsed)
        print(try await queue.submit(night))
        await queue.close()
    }

    private static func absolute(_ path: String) -> URL {
        URL(fileURLWithPath: path).standardizedFileURL
    }
}

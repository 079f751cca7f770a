import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis session status|discard [--storage DIR]`: the unfinished night an interrupted `analyze` left in the
/// storage directory — whether there is one, and discarding it when it cannot (or should not) be resumed.
enum SessionCommand: Command {
    static let name = "session"
    static let summary = "the unfinished night left by an interrupted analyze (session status|discard)"
    static let usage = """
        usage: sleepanalysis session status [--storage DIR]
               sleepanalysis session discard [--storage DIR]

          status     say whether an unfinished night can be resumed (analyze … --resume); exit 0 when one can,
                     1 when there is none
          discard    end the unfinished night without a result, so that the next analyze starts afresh (also when
                     its journal cannot be read back); exit 0

        """

    /// Both sub-commands take the storage directory and the licence.
    static let specification = ArgumentSpecification(
        options: ["storage", CommandLineLicence.option],
        usage: usage)

    static var syntax: CommandSyntax {
        .subcommands(
            usage: usage,
            [.init(name: "status", specification: specification), .init(name: "discard", specification: specification)])
    }

    static func run(_ arguments: [String]) async throws {
        guard let action = arguments.first else {
            throw CommandLineError.usage("missing action: status or discard")
        }
        guard action == "status" || action == "discard" else {
            throw CommandLineError.usage("unknown action '\(action)'")
        }
        guard let parsed = try ArgumentParser.parseUnlessHelp(Array(arguments.dropFirst()), specification) else {
            return
        }
        _ = try await CommandLineLicence.initialize(parsed)
        let resumable = await SleepCycleSdk.isResumePossible()
        if action == "discard" {
            try await SleepCycleSdk.clearActiveSessions()
            await SleepCycleSdk.deinitialize()
            try StandardOutput.print(
                resumable ? "discarded the unfinished night" : "no unfinished night to discard (nothing changed)")
            return
        }
        await SleepCycleSdk.deinitialize()
        guard resumable else {
            throw CommandLineError(kind: .failure, message: "no unfinished night in the storage directory")
        }
        try StandardOutput.print("an unfinished night can be resumed: sleepanalysis analyze … --resume")
    }
}

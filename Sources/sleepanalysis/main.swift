// sleepanalysis: the command-line tool. Each command lives in Commands/<Name>Command.swift; list it here.
import Foundation

let commands: [any Command.Type] = [
    AnalyzeCommand.self,
    RecordCommand.self,
    SplCommand.self,
    BreathingCommandEntry.self,
    EvaluateCommandEntry.self,
    FeaturesCommandEntry.self,
    HistoryCommand.self,
    ExportCommand.self,
    LicenseCommand.self,
    ModelsCommand.self,
    QueueCommandEntry.self,
    WorkerCommand.self,
]

/// Internal commands for the project's own tests (names start with "__"): they run when named, but the command
/// list does not show them.
let hiddenCommands: [any Command.Type] = [
    JournalWriterCommand.self
]

/// `breathing` in the command table: `BreathingCommand` parses its own arguments, prints its own errors and
/// returns an exit status, which this passes on.
enum BreathingCommandEntry: Command {
    static let name = "breathing"
    static let summary = "estimate the breathing rate of a recording"

    static func run(_ arguments: [String]) async throws {
        let status = BreathingCommand.run(arguments)
        if status != 0 { exit(status) }
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let isHidden = hiddenCommands.contains { $0.name == arguments.first }
exit(await CommandRunner.run(arguments, commands: isHidden ? commands + hiddenCommands : commands))

// sleepanalysis: the command-line tool. Each command lives in Commands/<Name>Command.swift; list it here.
import Foundation

let commands: [any Command.Type] = [
    AnalyzeCommand.self,
    RecordCommand.self,
    SplCommand.self,
    BreathingCommandEntry.self,
    EvaluateCommandEntry.self,
    FeaturesCommandEntry.self,
    SessionCommand.self,
    HistoryCommand.self,
    ReportCommand.self,
    ExportCommand.self,
    LicenseCommand.self,
    ModelsCommand.self,
    QueueCommandEntry.self,
    WorkerCommand.self,
    ServeCommand.self,
]

/// Internal commands for the project's own tests (names start with "__"): they run when named, but the command
/// list does not show them.
let hiddenCommands: [any Command.Type] = [
    JournalWriterCommand.self
]

let arguments = Array(CommandLine.arguments.dropFirst())
let isHidden = hiddenCommands.contains { $0.name == arguments.first }
exit(await CommandRunner.run(arguments, commands: isHidden ? commands + hiddenCommands : commands))

// sleepanalysis: the command-line tool. Each command lives in Commands/<Name>Command.swift; list it here.
import Foundation

/// Commands on the `Command` protocol (usage, errors and exit statuses through `CommandRunner`).
let commands: [any Command.Type] = [
    SplCommand.self,
    LicenseCommand.self,
    ModelsCommand.self,
]

/// Commands that return their exit status themselves (not yet on the `Command` protocol). Names starting with
/// "__" are hidden helpers for the test suite.
let statusCommands: [(name: String, run: ([String]) throws -> Int32)] = [
    ("breathing", BreathingCommand.run),
    (JournalWriterCommand.name, JournalWriterCommand.run),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if let name = arguments.first, let command = statusCommands.first(where: { $0.name == name }) {
    do {
        exit(try command.run(Array(arguments.dropFirst())))
    } catch {
        FileHandle.standardError.write(Data("sleepanalysis \(name): \(error)\n".utf8))
        exit(1)
    }
}

exit(await CommandRunner.run(arguments, commands: commands))

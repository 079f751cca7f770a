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
let statusCommands: [(name: String, summary: String, run: ([String]) throws -> Int32)] = [
    ("breathing", "estimate the breathing rate of a recording", BreathingCommand.run),
    (JournalWriterCommand.name, "", JournalWriterCommand.run),
]

/// The list of every visible command.
@MainActor func usage() -> String {
    let visible =
        commands.map { (name: $0.name, summary: $0.summary) }
        + statusCommands.filter { !$0.name.hasPrefix("__") }.map { (name: $0.name, summary: $0.summary) }
    let width = visible.map(\.name.count).max() ?? 0
    let lines = visible.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
    return "usage: sleepanalysis <command> [options]\n\ncommands:\n" + lines.joined(separator: "\n") + "\n"
}

let arguments = Array(CommandLine.arguments.dropFirst())
let name = arguments.first ?? ""
if let command = statusCommands.first(where: { $0.name == name }) {
    do {
        exit(try command.run(Array(arguments.dropFirst())))
    } catch {
        FileHandle.standardError.write(Data("sleepanalysis \(name): \(error)\n".utf8))
        exit(1)
    }
}
if ["-h", "--help", "help"].contains(name) {
    print(usage(), terminator: "")
    exit(0)
}
guard commands.contains(where: { $0.name == name }) else {
    let prefix = name.isEmpty ? "" : "sleepanalysis: unknown command '\(name)'\n\n"
    FileHandle.standardError.write(Data((prefix + usage()).utf8))
    exit(64)
}
exit(await CommandRunner.run(arguments, commands: commands))

import Foundation
import SleepAnalysis

// The command table: each command lives in Commands/<Name>Command.swift and returns the process exit status.
// Hidden commands (names starting with "__") serve the test suite and are not listed in the usage text.
let commands: [(name: String, summary: String, run: ([String]) throws -> Int32)] = [
    ("breathing", "estimate the breathing rate of a recording", BreathingCommand.run),
    (JournalWriterCommand.name, "", JournalWriterCommand.run),
]

@MainActor func usage() -> String {
    let visible = commands.filter { !$0.name.hasPrefix("__") }
    let width = visible.map(\.name.count).max() ?? 0
    let lines = visible.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
    return "usage: sleepanalysis <command> [options]\n\ncommands:\n" + lines.joined(separator: "\n") + "\n"
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let command = commands.first(where: { $0.name == name }) else {
    let asked = arguments.first.map { ["-h", "--help", "help"].contains($0) } ?? false
    FileHandle.standardError.write(Data(usage().utf8))
    exit(asked ? 0 : 64)
}
do {
    exit(try command.run(Array(arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("sleepanalysis \(name): \(error)\n".utf8))
    exit(1)
}

import Foundation
import SleepAnalysis

/// The commands `sleepanalysis` knows, the ones `main.swift` lists and the built-ins, with what each accepts: the
/// one table that dispatch, `help`, usage hints and the completion scripts read.
struct CommandTable {
    /// One command as help and completion see it.
    struct Entry {
        /// The word that selects it.
        var name: String
        /// One line for the command list.
        var summary: String
        /// What it accepts.
        var syntax: CommandSyntax
    }

    /// The commands `main.swift` lists.
    let commands: [any Command.Type]

    /// Every command, built-ins last.
    var entries: [Entry] {
        commands.map { Entry(name: $0.name, summary: $0.summary, syntax: $0.syntax) } + BuiltInCommands.entries(self)
    }

    /// The entry named `name`.
    ///
    /// - Parameter name: A command word.
    /// - Returns: The entry, or nil when no command has that name.
    func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// The command words whose help applies to `arguments` (the command, and its sub-command when it is a group
    /// and the next word names one); empty when the first word names no command.
    ///
    /// - Parameter arguments: The process arguments without the program name.
    /// - Returns: One or two words, or none.
    func helpPath(_ arguments: [String]) -> [String] {
        guard let name = arguments.first, let entry = entry(named: name) else { return [] }
        let next = arguments.dropFirst().first
        if let subcommand = entry.syntax.subcommand(named: next) { return [name, subcommand.name] }
        return [name]
    }

    /// The tool's help: usage, global options and the command list.
    var overview: String {
        let all = entries
        let width = all.map(\.name.count).max() ?? 0
        let lines = all.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
        return """
            usage: sleepanalysis <command> [options]
                   sleepanalysis help <command> [<sub-command>]

              -h, --help       show this help (after a command: that command's help)
                  --version    print the version (\(SleepAnalysisVersion.current))

            commands:
            \(lines.joined(separator: "\n"))

            """
    }
}

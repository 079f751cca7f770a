import CommandLineKit
import Foundation
import SleepAnalysis

/// The commands every swift-argument-parser tool has: `help [COMMAND [SUB]]`, `-h`/`--help`, `--version` and
/// `completion bash|zsh|fish`.
enum BuiltInCommands {
    /// The shells `completion` writes scripts for.
    static let shells = ["bash", "zsh", "fish"]

    /// The help of `completion`.
    static let completionUsage = """
        usage: sleepanalysis completion bash|zsh|fish

          bash   source <(sleepanalysis completion bash), or save it in
                 ~/.local/share/bash-completion/completions/sleepanalysis
          zsh    save it as _sleepanalysis in a folder on $fpath
          fish   save it in ~/.config/fish/completions/sleepanalysis.fish

        """

    /// The help of `help`.
    static let helpUsage = """
        usage: sleepanalysis help [COMMAND [SUB-COMMAND]]

          Shows the help of a command (or of a sub-command of evaluate, features, license), as COMMAND --help
          does; without a command, the list of commands.

        """

    /// The built-ins as command-table entries, so that help lists them and the scripts complete them.
    ///
    /// - Parameter table: The commands `help` can explain.
    /// - Returns: `help` and `completion`.
    static func entries(_ table: CommandTable) -> [CommandTable.Entry] {
        let empty = ArgumentSpecification(usage: "")
        let helpTopics = table.commands.map { CommandSyntax.Subcommand(name: $0.name, specification: empty) }
        return [
            CommandTable.Entry(
                name: "help", summary: "show the help of a command (help COMMAND [SUB-COMMAND])",
                syntax: .subcommands(usage: helpUsage, helpTopics)),
            CommandTable.Entry(
                name: "completion", summary: "print a shell completion script (completion bash|zsh|fish)",
                syntax: .subcommands(
                    usage: completionUsage,
                    shells.map { CommandSyntax.Subcommand(name: $0, specification: empty) })),
        ]
    }

    /// Runs `name` when it is a built-in.
    ///
    /// - Parameters:
    ///   - name: The first argument.
    ///   - arguments: The arguments after it.
    ///   - table: The commands.
    /// - Returns: True when `name` was a built-in and has run; false for any other command.
    /// - Throws: A usage `CommandLineError` for a help topic or shell that does not exist.
    static func run(_ name: String, _ arguments: [String], table: CommandTable) throws -> Bool {
        switch name {
        case "-h", "--help":
            print(table.overview, terminator: "")
        case "--version":
            print(SleepAnalysisVersion.current)
        case "help":
            print(try help(arguments, table: table), terminator: "")
        case "completion":
            if arguments.first == "-h" || arguments.first == "--help" {
                print(completionUsage, terminator: "")
                return true
            }
            guard let shell = arguments.first else {
                throw CommandLineError.usage("missing shell: give one of \(shells.joined(separator: ", "))")
            }
            guard arguments.count == 1 else { throw CommandLineError.usage("unexpected argument: \(arguments[1])") }
            print(try CompletionScript.render(shell: shell, table: table), terminator: "")
        default:
            return false
        }
        return true
    }

    /// The help text `help WORDS` prints.
    ///
    /// - Parameters:
    ///   - words: The command, and for a group a sub-command (none: the tool's help).
    ///   - table: The commands.
    /// - Returns: The help text.
    /// - Throws: A usage `CommandLineError` when the words name no command.
    static func help(_ words: [String], table: CommandTable) throws -> String {
        guard let name = words.first else { return table.overview }
        guard let entry = table.entry(named: name) else {
            throw CommandLineError.usage("no help for '\(name)': it is not a command")
        }
        if words.count > 1 {
            guard let subcommand = entry.syntax.subcommand(named: words[1]), !subcommand.specification.usage.isEmpty
            else {
                throw CommandLineError.usage("no help for '\(words.joined(separator: " "))': not a sub-command")
            }
            return subcommand.specification.usage
        }
        if let usage = entry.syntax.usage { return usage }
        return "usage: sleepanalysis \(name) [options]\n\n  \(entry.summary)\n  (sleepanalysis \(name) --help)\n"
    }
}

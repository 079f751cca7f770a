import CommandLineKit
import Foundation

/// The completion scripts of `sleepanalysis completion bash|zsh|fish`, generated from the command table (the
/// same specifications the parser reads), so that they complete exactly what the tool accepts.
enum CompletionScript {
    /// One place on the command line to complete: after the words `path`, the words that may come next (command
    /// or sub-command names, with summaries) or the options of a command.
    struct Node {
        /// The command words that lead here (empty: right after `sleepanalysis`).
        var path: [String]
        /// Command or sub-command names that may come next, with one-line summaries.
        var words: [(name: String, summary: String)] = []
        /// Every option and flag as typed (`--format`, `-f`), with `--help` and `-h`.
        var options: [String] = []
        /// The options that take a value (the next word is completed as a file name).
        var valueOptions: [String] = []

        /// The path as one string (`evaluate events`).
        var key: String { path.joined(separator: " ") }
    }

    /// Renders the script for `shell`.
    ///
    /// - Parameters:
    ///   - shell: `bash`, `zsh` or `fish`.
    ///   - table: The commands.
    /// - Returns: The script.
    /// - Throws: A usage `CommandLineError` for another shell.
    static func render(shell: String, table: CommandTable) throws -> String {
        let nodes = nodes(table)
        switch shell {
        case "bash": return BashCompletionScript.render(nodes)
        case "zsh": return ZshCompletionScript.render(nodes)
        case "fish": return FishCompletionScript.render(nodes)
        default:
            throw CommandLineError.usage(
                "unknown shell '\(shell)'; expected one of \(BuiltInCommands.shells.joined(separator: ", "))")
        }
    }

    /// The places to complete, from the table: the command list, each command's options, each group's
    /// sub-commands and their options.
    ///
    /// - Parameter table: The commands.
    /// - Returns: The nodes, the command list first.
    static func nodes(_ table: CommandTable) -> [Node] {
        let entries = table.entries
        var nodes = [
            Node(
                path: [], words: entries.map { ($0.name, $0.summary) }, options: ["--help", "-h", "--version"])
        ]
        for entry in entries {
            switch entry.syntax {
            case .options(let specification):
                nodes.append(node([entry.name], specification))
            case .subcommands(_, let subcommands):
                nodes.append(
                    Node(
                        path: [entry.name], words: subcommands.map { ($0.name, "") }, options: ["--help", "-h"]))
                for subcommand in subcommands where !subcommand.specification.usage.isEmpty {
                    nodes.append(node([entry.name, subcommand.name], subcommand.specification))
                }
            case .undeclared:
                break
            }
        }
        return nodes
    }

    private static func node(_ path: [String], _ specification: ArgumentSpecification) -> Node {
        Node(
            path: path, options: specification.spellings + ["--help", "-h"], valueOptions: specification.valueSpellings)
    }

    /// `text` as a single-quoted word of a POSIX shell (bash, zsh).
    static func posixQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `text` as a single-quoted fish word (fish reads `\\` and `\'` inside single quotes).
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}

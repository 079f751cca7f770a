import CommandLineKit
import Foundation

/// What a command accepts, as `help`, `--help`, the usage-error hint and the completion scripts see it.
enum CommandSyntax: Sendable {
    /// A command with options and positionals (`analyze AUDIO [options]`).
    case options(ArgumentSpecification)
    /// A group whose first argument names a sub-command (`evaluate events …`), with the group's usage text.
    case subcommands(usage: String, [Subcommand])
    /// Nothing declared: `help NAME` prints the summary and points to `NAME --help` (which the command answers
    /// itself), and completion offers the name only.
    case undeclared

    /// One sub-command of a group.
    struct Subcommand: Sendable {
        /// The word that selects it (`events`).
        var name: String
        /// What it accepts.
        var specification: ArgumentSpecification
    }

    /// The sub-command named `name`, when this is a group that has it.
    ///
    /// - Parameter name: The word after the group's name.
    /// - Returns: The sub-command, or nil.
    func subcommand(named name: String?) -> Subcommand? {
        guard case .subcommands(_, let subcommands) = self else { return nil }
        return subcommands.first { $0.name == name }
    }

    /// The help text: the specification's usage, or the group's usage.
    var usage: String? {
        switch self {
        case .options(let specification): specification.usage
        case .subcommands(let usage, _): usage
        case .undeclared: nil
        }
    }
}

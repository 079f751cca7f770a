import Foundation

/// One `sleepanalysis` sub-command. Add a command by writing a type in `Commands/<Name>Command.swift` and
/// listing it in `main.swift`.
protocol Command {
    /// The word that selects the command (`spl`).
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// Its options or sub-commands, for `help`, `--help`, usage-error hints and the completion scripts.
    static var syntax: CommandSyntax { get }
    /// Runs the command with the arguments after its name.
    ///
    /// - Throws: `CommandLineError` (or any error: `CommandRunner` maps SDK errors to exit statuses).
    static func run(_ arguments: [String]) async throws
}

extension Command {
    /// A command that does not declare its syntax answers `--help` itself and completes no options.
    static var syntax: CommandSyntax { .undeclared }
}

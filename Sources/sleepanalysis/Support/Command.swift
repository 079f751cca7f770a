import Foundation

/// One `sleepanalysis` sub-command. Add a command by writing a type in `Commands/<Name>Command.swift` and
/// listing it in `main.swift`.
protocol Command {
    /// The word that selects the command (`spl`).
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// Runs the command with the arguments after its name.
    ///
    /// - Throws: `CommandLineError` (or any error: `CommandRunner` maps SDK errors to exit statuses).
    static func run(_ arguments: [String]) async throws
}

import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisFleet

/// Dispatches `sleepanalysis <command> …` and turns errors into messages on standard error and exit statuses.
enum CommandRunner {
    /// Runs the command named by the first argument, or one of the built-ins (`help`, `completion`, `--help`,
    /// `--version`).
    ///
    /// - Parameters:
    ///   - arguments: the process arguments without the program name.
    ///   - commands: the available commands.
    /// - Returns: the exit status: 0 on success, 64 usage, 65 bad input (data files, licence keys), 69 a database
    ///   that cannot be reached or is not migrated, 73 a result that could not be stored, 77 a database login or
    ///   right refused, 1 other failures.
    static func run(_ arguments: [String], commands: [any Command.Type]) async -> Int32 {
        let table = CommandTable(commands: commands)
        guard let name = arguments.first else {
            printError(table.overview)
            return 64
        }
        let rest = Array(arguments.dropFirst())
        do {
            if try BuiltInCommands.run(name, rest, table: table) { return 0 }
            guard let command = commands.first(where: { $0.name == name }) else {
                throw CommandLineError.usage("unknown command '\(name)'")
            }
            if case .subcommands(let usage, _) = command.syntax, rest.first == "-h" || rest.first == "--help" {
                print(usage, terminator: "")
                return 0
            }
            try await command.run(rest)
            return 0
        } catch let error as ArgumentUsageError {
            printError(usageError(MessageText.escaped(error.message), helpPath: table.helpPath(arguments)))
            return ArgumentUsageError.exitStatus
        } catch let error as CommandLineError {
            if error.kind == .usage {
                printError(usageError(MessageText.escaped(error.message), helpPath: table.helpPath(arguments)))
            } else {
                printError("sleepanalysis \(name): \(MessageText.escaped(error.message))\n")
            }
            return error.exitCode
        } catch let error as FleetDatabaseError {
            printError("sleepanalysis \(name): \(error.description)\n")
            return DatabaseArgument.exitCode(for: error)
        } catch let error as SleepCycleSdkError {
            printError("sleepanalysis \(name): \(MessageText.escaped(error.description))\n")
            return CommandLineError.exitCode(for: error)
        } catch {
            printError("sleepanalysis \(name): \(MessageText.escaped("\(error)"))\n")
            return 1
        }
    }

    /// A usage error as swift-argument-parser tools print it: one line, then where to read the help.
    ///
    /// - Parameters:
    ///   - message: What is wrong with the command line.
    ///   - helpPath: The command words whose help applies (`analyze`, `evaluate events`; empty for the tool).
    /// - Returns: `Error: message` and `Help: sleepanalysis PATH --help`, each on its own line.
    static func usageError(_ message: String, helpPath: [String]) -> String {
        "Error: \(message)\nHelp: " + (["sleepanalysis"] + helpPath + ["--help"]).joined(separator: " ") + "\n"
    }

    /// Writes text to standard error, each line's control characters escaped (`MessageText`): a file name with a
    /// newline or a terminal escape code in a message cannot forge a line or repaint the terminal.
    static func printError(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            MessageText.escaped(String($0))
        }
        FileHandle.standardError.write(Data(lines.joined(separator: "\n").utf8))
    }
}

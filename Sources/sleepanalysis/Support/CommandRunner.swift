import Foundation
import SleepAnalysis

/// Dispatches `sleepanalysis <command> …` and turns errors into messages on standard error and exit statuses.
enum CommandRunner {
    /// Runs the command named by the first argument.
    ///
    /// - Parameters:
    ///   - arguments: the process arguments without the program name.
    ///   - commands: the available commands.
    /// - Returns: the exit status: 0 on success, 64 usage, 65 bad input (data files, licence keys), 73 a result
    ///   that could not be stored, 1 other failures.
    static func run(_ arguments: [String], commands: [any Command.Type]) async -> Int32 {
        let overview = usage(commands)
        guard let name = arguments.first else {
            printError(overview)
            return 64
        }
        if name == "-h" || name == "--help" || name == "help" {
            print(overview, terminator: "")
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            printError("sleepanalysis: unknown command '\(name)'\n\n" + overview)
            return 64
        }
        do {
            try await command.run(Array(arguments.dropFirst()))
            return 0
        } catch let error as CommandLineError {
            var text = "sleepanalysis \(name): \(error.message)\n"
            if error.kind == .usage, let usage = error.usage { text += "\n" + usage }
            printError(text)
            return error.exitCode
        } catch let error as SleepCycleSdkError {
            printError("sleepanalysis \(name): \(error.description)\n")
            return CommandLineError.exitCode(for: error)
        } catch {
            printError("sleepanalysis \(name): \(error)\n")
            return 1
        }
    }

    /// The list of commands.
    static func usage(_ commands: [any Command.Type]) -> String {
        let width = commands.map { command in command.name.count }.max() ?? 0
        let lines = commands.map { command in
            "  " + command.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.summary
        }
        return "usage: sleepanalysis <command> [options]\n\ncommands:\n" + lines.joined(separator: "\n") + "\n"
    }

    /// Writes text to standard error.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}

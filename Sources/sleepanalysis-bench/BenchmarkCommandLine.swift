import CommandLineKit

/// What one benchmark (a sub-command, or the front-end benchmark without one) accepts, parsed with the package's
/// shared parser: `--name value`, `--name=value`, `--` and `-h`/`--help`, and a bad command line answered with
/// its usage line and exit 64.
struct BenchmarkCommandLine {
    /// What parsing left the benchmark to do.
    enum Outcome {
        /// Run with these arguments.
        case parsed(ParsedArguments)
        /// Nothing more to run: exit with this status (0 after `--help`, 64 after a usage error, already reported).
        case finished(Int32)
    }

    /// The sub-command (`events`), or nil for the front-end benchmark.
    let command: String?
    /// The options as the usage line shows them.
    let syntax: String
    /// What the parser accepts.
    let specification: ArgumentSpecification

    /// A benchmark's command line.
    ///
    /// - Parameters:
    ///   - command: The sub-command, or nil for the front-end benchmark.
    ///   - syntax: The options as the usage line shows them.
    ///   - options: Option names (without `--`) that take a value.
    ///   - flags: Flag names (without `--`).
    init(command: String?, syntax: String, options: Set<String>, flags: Set<String> = []) {
        self.command = command
        self.syntax = syntax
        let invocation = (["sleepanalysis-bench"] + (command.map { [$0] } ?? [])).joined(separator: " ")
        specification = ArgumentSpecification(
            options: options, flags: flags, usage: "usage: \(invocation) \(syntax)\n")
    }

    /// Parses `arguments` (after the sub-command's name); prints the usage for `--help`, and the message and usage
    /// line for a bad command line.
    ///
    /// - Parameter arguments: The arguments after the sub-command's name.
    /// - Returns: The parsed arguments, or the exit status when there is nothing to run.
    func parse(_ arguments: [String]) -> Outcome {
        do {
            guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return .finished(0) }
            return .parsed(parsed)
        } catch {
            return .finished(fail(error.message))
        }
    }

    /// Reports a bad command line: the message and the usage line on standard error.
    ///
    /// - Parameter message: What was wrong.
    /// - Returns: 64, the exit status of a usage error.
    func fail(_ message: String) -> Int32 {
        BenchmarkUsage.fail(command, message, syntax: syntax)
    }
}

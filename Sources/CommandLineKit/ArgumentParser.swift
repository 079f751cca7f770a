/// The command-line parser the package's tools share (`sleepanalysis`, `sleepanalysis-bench`,
/// `sleepanalysis-fuzz`), parsing like swift-argument-parser where it matters: `--name value`, `--name=value`,
/// one-letter aliases (`-f json`), `--` ending the options, `-h`/`--help`.
package enum ArgumentParser {
    /// Parses like `parse`, and answers `-h`/`--help` itself: prints the usage and returns nil (the command has
    /// nothing more to do).
    ///
    /// - Throws: what `parse` throws.
    package static func parseUnlessHelp(
        _ arguments: [String], _ specification: ArgumentSpecification
    ) throws(ArgumentUsageError) -> ParsedArguments? {
        let parsed = try parse(arguments, specification)
        guard !parsed.flag("help") else {
            print(specification.usage, terminator: "")
            return nil
        }
        return parsed
    }

    /// Parses `arguments` (without the program and command names) against `specification`.
    ///
    /// `--` ends option parsing; `-h`/`--help` is reported as the flag `help` and skips the positional check; a
    /// short name (`-f`) stands for the long name `specification.shortNames` gives it.
    /// - Throws: `ArgumentUsageError` for unknown options, a missing option value or missing or extra
    ///   positionals.
    package static func parse(
        _ arguments: [String], _ specification: ArgumentSpecification
    ) throws(ArgumentUsageError) -> ParsedArguments {
        var parsed = ParsedArguments(usage: specification.usage)
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.flags.insert("help")
                continue
            }
            var name: String
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
            } else if argument.count == 2, let long = specification.shortNames[argument.last ?? "-"] {
                name = long
            } else {
                throw ArgumentUsageError("unknown option \(argument)", usage: specification.usage)
            }
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if specification.flags.contains(name) {
                guard inlineValue == nil else {
                    throw ArgumentUsageError("--\(name) takes no value", usage: specification.usage)
                }
                parsed.flags.insert(name)
            } else if specification.options.contains(name) {
                guard let value = inlineValue ?? rest.popFirst() else {
                    throw ArgumentUsageError("--\(name) needs a value", usage: specification.usage)
                }
                parsed.options[name] = value
            } else {
                throw ArgumentUsageError("unknown option --\(name)", usage: specification.usage)
            }
        }
        if parsed.flag("help") { return parsed }
        if parsed.positionals.count < specification.positionals.count {
            let missing = specification.positionals[parsed.positionals.count...].joined(separator: ", ")
            throw ArgumentUsageError("missing argument: \(missing)", usage: specification.usage)
        }
        if !specification.allowsExtraPositionals && parsed.positionals.count > specification.positionals.count {
            let extra = parsed.positionals[specification.positionals.count...].joined(separator: " ")
            throw ArgumentUsageError("unexpected argument: \(extra)", usage: specification.usage)
        }
        return parsed
    }
}

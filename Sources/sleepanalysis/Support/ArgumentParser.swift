import Foundation

/// A parsed command line.
struct ParsedArguments: Sendable {
    /// Positional arguments in order.
    var positionals: [String] = []
    /// Option values by name (the last occurrence wins).
    var options: [String: String] = [:]
    /// Flags that were given.
    var flags: Set<String> = []
    /// The usage text, for errors raised while reading values.
    var usage: String

    /// Whether `--name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, if given.
    func option(_ name: String) -> String? { options[name] }

    /// The value of `--name`, which must be given.
    ///
    /// - Throws: a usage `CommandLineError` when it is missing.
    func required(_ name: String) throws -> String {
        guard let value = options[name] else { throw CommandLineError.usage("--\(name) is required", usage: usage) }
        return value
    }

    /// The value of `--name` converted to `T` (Double, Int, …), or nil when absent.
    ///
    /// - Throws: a usage `CommandLineError` when the value does not parse.
    func option<T: LosslessStringConvertible>(_ name: String, as type: T.Type) throws -> T? {
        guard let text = options[name] else { return nil }
        guard let value = T(text) else {
            throw CommandLineError.usage("--\(name): '\(text)' is not a valid \(T.self)", usage: usage)
        }
        return value
    }

    /// The value of `--name`, which must be one of `choices`, or `defaultValue` when absent.
    ///
    /// - Throws: a usage `CommandLineError` for any other value.
    func choice(_ name: String, from choices: [String], default defaultValue: String) throws -> String {
        guard let value = options[name] else { return defaultValue }
        guard choices.contains(value) else {
            throw CommandLineError.usage(
                "--\(name): '\(value)'; expected one of \(choices.joined(separator: ", "))", usage: usage)
        }
        return value
    }
}

/// A small reusable command-line parser.
enum ArgumentParser {
    /// Parses like `parse`, and answers `-h`/`--help` itself: prints the usage and returns nil (the command has
    /// nothing more to do).
    ///
    /// - Throws: what `parse` throws.
    static func parseUnlessHelp(
        _ arguments: [String], _ specification: ArgumentSpecification
    ) throws
        -> ParsedArguments?
    {
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
    /// - Throws: a usage `CommandLineError` for unknown options, a missing option value or missing or extra
    ///   positionals.
    static func parse(_ arguments: [String], _ specification: ArgumentSpecification) throws -> ParsedArguments {
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
                throw CommandLineError.usage("unknown option \(argument)", usage: specification.usage)
            }
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if specification.flags.contains(name) {
                guard inlineValue == nil else {
                    throw CommandLineError.usage("--\(name) takes no value", usage: specification.usage)
                }
                parsed.flags.insert(name)
            } else if specification.options.contains(name) {
                guard let value = inlineValue ?? rest.popFirst() else {
                    throw CommandLineError.usage("--\(name) needs a value", usage: specification.usage)
                }
                parsed.options[name] = value
            } else {
                throw CommandLineError.usage("unknown option --\(name)", usage: specification.usage)
            }
        }
        if parsed.flag("help") { return parsed }
        if parsed.positionals.count < specification.positionals.count {
            let missing = specification.positionals[parsed.positionals.count...].joined(separator: ", ")
            throw CommandLineError.usage("missing argument: \(missing)", usage: specification.usage)
        }
        if !specification.allowsExtraPositionals && parsed.positionals.count > specification.positionals.count {
            let extra = parsed.positionals[specification.positionals.count...].joined(separator: " ")
            throw CommandLineError.usage("unexpected argument: \(extra)", usage: specification.usage)
        }
        return parsed
    }
}

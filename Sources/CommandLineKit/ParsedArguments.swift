/// A parsed command line.
package struct ParsedArguments: Sendable {
    /// Positional arguments in order.
    package var positionals: [String] = []
    /// Option values by name (the last occurrence wins).
    package var options: [String: String] = [:]
    /// Flags that were given.
    package var flags: Set<String> = []
    /// The usage text, for errors raised while reading values.
    package var usage: String

    /// An empty command line of a command with the given usage text.
    ///
    /// - Parameter usage: The command's usage text.
    package init(usage: String) {
        self.usage = usage
    }

    /// Whether `--name` was given.
    package func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, if given.
    package func option(_ name: String) -> String? { options[name] }

    /// The value of `--name`, which must be given.
    ///
    /// - Throws: `ArgumentUsageError` when it is missing.
    package func required(_ name: String) throws(ArgumentUsageError) -> String {
        guard let value = options[name] else { throw ArgumentUsageError("--\(name) is required", usage: usage) }
        return value
    }

    /// The value of `--name` converted to `T` (Double, Int, …), or nil when absent.
    ///
    /// - Throws: `ArgumentUsageError` when the value does not parse.
    package func option<T: LosslessStringConvertible>(
        _ name: String, as type: T.Type
    ) throws(ArgumentUsageError) -> T? {
        guard let text = options[name] else { return nil }
        guard let value = T(text) else {
            throw ArgumentUsageError("--\(name): '\(text)' is not a valid \(T.self)", usage: usage)
        }
        return value
    }

    /// The value of `--name`, which must be one of `choices`, or `defaultValue` when absent.
    ///
    /// - Throws: `ArgumentUsageError` for any other value.
    package func choice(
        _ name: String, from choices: [String], default defaultValue: String
    ) throws(ArgumentUsageError) -> String {
        guard let value = options[name] else { return defaultValue }
        guard choices.contains(value) else {
            throw ArgumentUsageError(
                "--\(name): '\(value)'; expected one of \(choices.joined(separator: ", "))", usage: usage)
        }
        return value
    }
}

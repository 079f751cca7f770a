/// What a command accepts: options that take a value (`--name value` or `--name=value`), flags (`--name`) and
/// positional arguments. The parser, `help` and the completion scripts all read it.
package struct ArgumentSpecification: Sendable {
    /// Option names (without `--`) that take a value.
    package var options: Set<String>
    /// Flag names (without `--`).
    package var flags: Set<String>
    /// One-letter aliases (`f` for `format`, used as `-f json`) for options and flags, by letter.
    package var shortNames: [Character: String]
    /// Names of the required positional arguments, in order (for messages).
    package var positionals: [String]
    /// Whether more positionals than `positionals` may follow.
    package var allowsExtraPositionals: Bool
    /// The usage text shown for `--help` and `help COMMAND`; it names every option, flag and short alias.
    package var usage: String

    /// A specification; everything but the usage text defaults to nothing accepted.
    ///
    /// - Parameters:
    ///   - options: Option names (without `--`) that take a value.
    ///   - flags: Flag names (without `--`).
    ///   - shortNames: One-letter aliases of options and flags, by letter.
    ///   - positionals: Names of the required positional arguments, in order.
    ///   - allowsExtraPositionals: Whether more positionals may follow the required ones.
    ///   - usage: The usage text.
    package init(
        options: Set<String> = [], flags: Set<String> = [], shortNames: [Character: String] = [:],
        positionals: [String] = [], allowsExtraPositionals: Bool = false, usage: String
    ) {
        self.options = options
        self.flags = flags
        self.shortNames = shortNames
        self.positionals = positionals
        self.allowsExtraPositionals = allowsExtraPositionals
        self.usage = usage
    }

    /// The short alias of `name`, if it has one.
    ///
    /// - Parameter name: An option or flag name without `--`.
    /// - Returns: The letter, or nil.
    package func shortName(of name: String) -> Character? {
        shortNames.first { $0.value == name }?.key
    }

    /// Every option and flag as typed (`--format`, `-f`), sorted, for completion.
    package var spellings: [String] {
        options.union(flags).sorted().map { "--" + $0 } + shortNames.keys.sorted().map { "-" + String($0) }
    }

    /// The options that take a value as typed (`--format`, `-f`), sorted, for completion.
    package var valueSpellings: [String] {
        options.sorted().map { "--" + $0 }
            + shortNames.filter { options.contains($0.value) }.keys.sorted().map {
                "-" + String($0)
            }
    }
}

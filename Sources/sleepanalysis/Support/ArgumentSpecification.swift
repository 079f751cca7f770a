import Foundation

/// What a command accepts: options that take a value (`--name value` or `--name=value`), flags (`--name`) and
/// positional arguments. The parser, `help` and the completion scripts all read it.
struct ArgumentSpecification: Sendable {
    /// Option names (without `--`) that take a value.
    var options: Set<String> = []
    /// Flag names (without `--`).
    var flags: Set<String> = []
    /// One-letter aliases (`f` for `format`, used as `-f json`) for options and flags, by letter.
    var shortNames: [Character: String] = [:]
    /// Names of the required positional arguments, in order (for messages).
    var positionals: [String] = []
    /// Whether more positionals than `positionals` may follow.
    var allowsExtraPositionals = false
    /// The usage text shown for `--help` and `help COMMAND`; it names every option, flag and short alias.
    var usage: String

    /// The short alias of `name`, if it has one.
    ///
    /// - Parameter name: An option or flag name without `--`.
    /// - Returns: The letter, or nil.
    func shortName(of name: String) -> Character? {
        shortNames.first { $0.value == name }?.key
    }

    /// Every option and flag as typed (`--format`, `-f`), sorted, for completion.
    var spellings: [String] {
        options.union(flags).sorted().map { "--" + $0 } + shortNames.keys.sorted().map { "-" + String($0) }
    }

    /// The options that take a value as typed (`--format`, `-f`), sorted, for completion.
    var valueSpellings: [String] {
        options.sorted().map { "--" + $0 }
            + shortNames.filter { options.contains($0.value) }.keys.sorted().map {
                "-" + String($0)
            }
    }
}

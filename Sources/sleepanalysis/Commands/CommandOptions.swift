import Foundation
import SleepAnalysis

/// `--name value` options of one command.
struct CommandOptions {
    private var values: [String: String] = [:]
    private let usage: String

    /// Parses arguments; every option takes a value.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an unknown option or a missing value.
    init(_ arguments: [String], valued: Set<String>, usage: String) throws {
        self.usage = usage
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard valued.contains(name), index + 1 < arguments.count else {
                throw SleepCycleSdkError.invalidConfiguration("unexpected argument '\(name)'\n\(usage)")
            }
            values[name] = arguments[index + 1]
            index += 2
        }
    }

    /// The value of an option, if given.
    func value(_ name: String) -> String? { values[name] }

    /// The value of a required option.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` when it is missing.
    func required(_ name: String) throws -> String {
        guard let value = values[name] else {
            throw SleepCycleSdkError.invalidConfiguration("missing \(name)\n\(usage)")
        }
        return value
    }
}

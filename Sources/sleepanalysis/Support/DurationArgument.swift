import CommandLineKit
import Foundation
import SleepAnalysis

/// Durations on the command line: a number and a unit, `90s`, `15m`, `12h`, `30d`, `2w` (a bare number is
/// seconds).
enum DurationArgument {
    /// Seconds per unit.
    private static let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]

    /// The duration in `text`, seconds.
    ///
    /// - Parameters:
    ///   - text: `30d`, `12h`, `1.5h`, `600`.
    ///   - option: The option's name, for the message.
    /// - Returns: Seconds (not negative).
    /// - Throws: A usage `CommandLineError` for anything else.
    static func seconds(_ text: String, option: String) throws -> TimeInterval {
        var number = Substring(text.trimmingCharacters(in: .whitespaces))
        var unit = 1.0
        if let last = number.last, let factor = units[Character(last.lowercased())] {
            unit = factor
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value >= 0 else {
            throw CommandLineError.usage(
                "--\(option) takes a duration such as 90s, 15m, 12h, 30d or 2w, not '\(text)'")
        }
        return value * unit
    }
}

import CommandLineKit
import Foundation
import SleepAnalysisEvaluation

/// The `--band-limit 8k|4k|opus` option of `features events` and `evaluate events`: a band-limited or codec copy of
/// each clip (`EventBandLimit`) instead of the clip as recorded.
enum BandLimitArgument {
    /// The copy `--band-limit` asks for, or nil when absent.
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The copy to make, if any.
    /// - Throws: a usage `CommandLineError` naming the accepted values for any other value.
    static func bandLimit(_ parsed: ParsedArguments) throws -> EventBandLimit? {
        guard parsed.option("band-limit") != nil else { return nil }
        let value = try parsed.choice("band-limit", from: EventBandLimit.allCases.map(\.rawValue), default: "")
        return EventBandLimit(rawValue: value)
    }
}

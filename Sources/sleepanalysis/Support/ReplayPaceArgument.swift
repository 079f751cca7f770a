import CommandLineKit
import Foundation
import SleepAnalysis

/// The `--pace realtime|N` option: how fast a recorded night is replayed.
enum ReplayPaceArgument {
    /// The pace `--pace` asks for: as fast as possible when absent.
    ///
    /// - Parameter parsed: The parsed command line.
    /// - Returns: The pace.
    /// - Throws: a usage `CommandLineError` for anything but `realtime` or a positive finite factor.
    static func pace(_ parsed: ParsedArguments) throws -> ReplayPace {
        switch parsed.option("pace") {
        case nil: return .asFastAsPossible
        case "realtime": return .realTime
        case let text?:
            guard let factor = Double(text), factor > 0, factor.isFinite else {
                throw CommandLineError.usage("--pace takes realtime or a positive speed factor, not '\(text)'")
            }
            return .speed(factor)
        }
    }
}

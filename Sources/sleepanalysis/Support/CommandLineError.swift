import Foundation

/// A failure that ends a command: what to print and which exit status to return.
struct CommandLineError: Error, CustomStringConvertible {
    /// The kinds of failure, each with its exit status (BSD `sysexits.h`).
    enum Kind: Sendable {
        /// The command line is wrong (unknown option, missing value or argument): exit 64.
        case usage
        /// The input data is wrong (unreadable file, malformed content): exit 65.
        case badData
        /// Anything else: exit 1.
        case failure
    }

    /// The kind of failure.
    var kind: Kind
    /// What went wrong, for standard error.
    var message: String
    /// The command's usage text, printed after usage errors.
    var usage: String?

    /// The process exit status for this failure.
    var exitCode: Int32 {
        switch kind {
        case .usage: 64
        case .badData: 65
        case .failure: 1
        }
    }

    var description: String { message }

    /// A usage error.
    static func usage(_ message: String, usage: String? = nil) -> CommandLineError {
        CommandLineError(kind: .usage, message: message, usage: usage)
    }

    /// A bad-data error.
    static func badData(_ message: String) -> CommandLineError {
        CommandLineError(kind: .badData, message: message, usage: nil)
    }
}

import Foundation
import SleepAnalysis

/// A failure that ends a command: what to print and which exit status to return.
struct CommandLineError: Error, CustomStringConvertible {
    /// The kinds of failure, each with its exit status (BSD `sysexits.h`).
    enum Kind: Sendable, Equatable {
        /// The command line is wrong (unknown option, missing value or argument): exit 64.
        case usage
        /// The input data is wrong (unreadable file, malformed content): exit 65.
        case badData
        /// A result could not be saved where it was asked to go (the session store); it was printed and kept:
        /// exit 73 (`EX_CANTCREAT`).
        case cannotStore
        /// Standard output or an output file could not be written (full disk, closed pipe): exit 74 (`EX_IOERR`).
        case outputFailed
        /// Anything else: exit 1.
        case failure
        /// Stopped by a signal (SIGINT: Ctrl-C) after printing what was done: exit 128 + the signal's number, as
        /// shells report a process the signal ended.
        case interrupted(signal: Int32)
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
        case .cannotStore: 73
        case .outputFailed: 74
        case .failure: 1
        case .interrupted(let signal): 128 + signal
        }
    }

    /// The exit status for an SDK error: input the user gave (data files, a time range holding no data, a licence
    /// key that is invalid, expired or lacks a feature) is 65, a bad configuration 64, a database store that cannot
    /// be reached 69 or that refuses the login or a right 77, anything else 1.
    ///
    /// - Parameter error: The SDK's error.
    /// - Returns: The process exit status.
    static func exitCode(for error: SleepCycleSdkError) -> Int32 {
        switch error {
        case .invalidInput, .dataSourceFailure, .emptyTimeRange, .invalidApiKey, .featureNotEnabled: 65
        case .invalidConfiguration: 64
        // A database store: 69 (EX_UNAVAILABLE) when it cannot be reached, 77 (EX_NOPERM) when it refuses the login
        // or a right, as the queue and worker commands answer.
        case .storageFailure(let reason):
            switch reason.cause {
            case .postgres(let state) where state.hasPrefix("28") || state == "42501": 77
            case .postgres(let state) where state.hasPrefix("08") || state.hasPrefix("57P") || state.hasPrefix("53"):
                69
            default: 1
            }
        default: 1
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

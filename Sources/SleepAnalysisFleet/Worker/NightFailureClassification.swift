import Foundation
import SleepAnalysis

/// What an error means for the job it happened in.
enum NightFailureClassification: Sendable, Hashable {
    /// The night is at fault: fail the job.
    case input(String)
    /// It may pass: retry the job later.
    case transient(String)
    /// The worker is at fault (its licence): give the job back and stop the worker with this error.
    case worker(SleepCycleSdkError)

    /// Sorts an error from analysing a night: a transient cause (``SleepCycleSdkError/isTransient``, e.g. a DSP
    /// out-of-memory) is retried; bad input, a data source that cannot be read and a time range without data fail
    /// the job; a licence fault stops the worker.
    ///
    /// - Parameter error: The error.
    /// - Returns: Its classification, with a message.
    static func classify(_ error: any Error) -> NightFailureClassification {
        if let error = error as? RemoteInputError {
            return error.isPermanent ? .input(error.description) : .transient(error.description)
        }
        guard let error = error as? SleepCycleSdkError else {
            return .transient(String(describing: error))
        }
        // Memory, a busy database, a server's 5xx: the same night may pass later, whatever the case says.
        if error.isTransient { return .transient(error.description) }
        switch error {
        case .invalidInput, .dataSourceFailure, .invalidConfiguration, .emptyTimeRange:
            return .input(error.description)
        case .invalidApiKey, .featureNotEnabled: return .worker(error)
        default: return .transient(error.description)
        }
    }

    /// The message.
    var message: String {
        switch self {
        case .input(let message), .transient(let message): message
        case .worker(let error): error.description
        }
    }

    /// The queue's failure for an input or transient classification (nil for a worker fault).
    var jobFailure: NightJobFailure? {
        switch self {
        case .input(let message): .input(message)
        case .transient(let message): .transient(message)
        case .worker: nil
        }
    }
}

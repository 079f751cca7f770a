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

    /// Sorts an error from analysing a night.
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
        switch error {
        case .invalidInput, .dataSourceFailure, .invalidConfiguration: return .input(error.description)
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

import CSleepDSP

/// A failure of the C DSP core (`Sources/CSleepDSP`): the status a `sa_*` function returned and what was being
/// done. The one place where the core's status codes become Swift errors; `sdkError` gives the public error for
/// callers that throw `SleepCycleSdkError`.
struct DSPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C core's failure statuses (`sa_status` other than `SA_OK`).
    enum Status: Sendable, Hashable {
        /// `SA_ERR_INVALID_ARGUMENT`: a size, count or setting out of range.
        case invalidArgument
        /// `SA_ERR_OUT_OF_MEMORY`.
        case outOfMemory
        /// `SA_ERR_UNSUPPORTED_RATE`: a sample or frame rate the core does not handle.
        case unsupportedRate
        /// `SA_ERR_BACKEND`: FFTW or another library failed.
        case backend
        /// A code this layer does not know (its raw value).
        case other(UInt32)
    }

    /// What the C call returned.
    let status: Status
    /// What was being done (for example "front end set-up", or the C function's name).
    let operation: String

    /// An error for a failure status.
    ///
    /// - Parameters:
    ///   - status: the failure.
    ///   - operation: what was being done, for the message.
    init(_ status: Status, _ operation: String) {
        self.status = status
        self.operation = operation
    }

    /// Throws when `status` is not `SA_OK`.
    ///
    /// - Parameters:
    ///   - status: what a `sa_*` function returned.
    ///   - operation: what was being done, for the message.
    /// - Throws: a `DSPError` with the status and the operation.
    static func check(_ status: sa_status, _ operation: String) throws(DSPError) {
        guard status != SA_OK else { return }
        throw DSPError(Status(status), operation)
    }

    /// The C core's text for the status (for example "invalid argument").
    var reason: String { String(cString: sa_status_message(cStatus)) }

    /// "operation: reason".
    var description: String { "\(operation): \(reason)" }

    /// Whether the caller asked for something the core does not do (bad arguments, unsupported rates), rather
    /// than the core failing (memory, FFTW).
    var isConfigurationError: Bool { status == .invalidArgument || status == .unsupportedRate }

    /// The public error: `SleepCycleSdkError.invalidConfiguration` for bad arguments and unsupported rates,
    /// `SleepCycleSdkError.dataSourceFailure` for memory or FFTW failures, with the typed cause
    /// (`outOfMemory`, a transient failure, or the DSP status); the message is `description`.
    var sdkError: SleepCycleSdkError {
        guard !isConfigurationError else { return .invalidConfiguration(description) }
        let cause: SleepCycleSdkError.Cause = status == .outOfMemory ? .outOfMemory : .dsp(status: cStatus.rawValue)
        return .dataSourceFailure(.init(description, cause: cause))
    }

    private var cStatus: sa_status {
        switch status {
        case .invalidArgument: SA_ERR_INVALID_ARGUMENT
        case .outOfMemory: SA_ERR_OUT_OF_MEMORY
        case .unsupportedRate: SA_ERR_UNSUPPORTED_RATE
        case .backend: SA_ERR_BACKEND
        case .other(let raw): sa_status(rawValue: raw)
        }
    }
}

extension DSPError.Status {
    /// The Swift case of a C failure status.
    init(_ status: sa_status) {
        switch status {
        case SA_ERR_INVALID_ARGUMENT: self = .invalidArgument
        case SA_ERR_OUT_OF_MEMORY: self = .outOfMemory
        case SA_ERR_UNSUPPORTED_RATE: self = .unsupportedRate
        case SA_ERR_BACKEND: self = .backend
        default: self = .other(status.rawValue)
        }
    }
}

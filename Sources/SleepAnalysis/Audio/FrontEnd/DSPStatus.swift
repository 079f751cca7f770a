import CSleepDSP

/// Turns the C DSP core's status codes into Swift errors: the one place where that happens.
enum DSPStatus {
    /// Throws when `status` is not `SA_OK`.
    ///
    /// - Parameters:
    ///   - status: what a `sa_*` function returned.
    ///   - operation: what was being done, for the message (for example "front end set-up").
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for bad arguments and unsupported rates,
    ///   `SleepCycleSdkError.dataSourceFailure` for memory or FFTW failures.
    static func check(_ status: sa_status, _ operation: String) throws {
        switch status {
        case SA_OK:
            return
        case SA_ERR_INVALID_ARGUMENT, SA_ERR_UNSUPPORTED_RATE:
            throw SleepCycleSdkError.invalidConfiguration("\(operation): \(message(status))")
        default:
            throw SleepCycleSdkError.dataSourceFailure("\(operation): \(message(status))")
        }
    }

    /// The C core's text for a status.
    static func message(_ status: sa_status) -> String { String(cString: sa_status_message(status)) }
}

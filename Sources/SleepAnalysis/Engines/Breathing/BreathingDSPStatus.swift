import CSleepDSP

/// The one place where the breathing DSP's C status codes become Swift errors.
enum BreathingDSPStatus {
    /// Throws when `status` is not `SA_OK`.
    ///
    /// - Parameters:
    ///   - status: What the C call returned.
    ///   - call: The C function, for the message.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for bad arguments, `.dataSourceFailure` otherwise.
    static func check(_ status: sa_status, _ call: String) throws {
        guard status != SA_OK else { return }
        let message = "\(call): \(String(cString: sa_status_message(status)))"
        if status == SA_ERR_INVALID_ARGUMENT || status == SA_ERR_UNSUPPORTED_RATE {
            throw SleepCycleSdkError.invalidConfiguration(message)
        }
        throw SleepCycleSdkError.dataSourceFailure(message)
    }
}

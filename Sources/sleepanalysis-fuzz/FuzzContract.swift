import SleepAnalysis

/// Checks that a parser rejected an input the way its documentation promises; anything else traps, so the fuzzer
/// records the input as a crash.
enum FuzzContract {
    /// Traps unless `error` is a `SleepCycleSdkError` that `isDocumented` accepts.
    ///
    /// - Parameters:
    ///   - error: What the parser threw.
    ///   - harness: The harness's name, for the message.
    ///   - isDocumented: Whether the parser documents this error for bad input.
    static func requireDocumented(
        _ error: any Error, harness: String, _ isDocumented: (SleepCycleSdkError) -> Bool
    ) {
        guard let sdkError = error as? SleepCycleSdkError, isDocumented(sdkError) else {
            fatalError("\(harness): undocumented error \(type(of: error)): \(error)")
        }
    }
}

import Foundation

/// The library's logger for the package's other targets (the fleet's workers): the same filtering, label and
/// metadata as the library's own messages, whose logger stays internal to the library.
package struct PackageLogger: Sendable {
    private let logger: SDKLogger

    /// Creates a filtering logger.
    ///
    /// - Parameters:
    ///   - threshold: The lowest level passed on; `.noLog` passes nothing.
    ///   - destination: The receiving handler; nil means standard error.
    package init(threshold: LogLevel, destination: (any SleepAnalysisLogHandler)?) {
        logger = SDKLogger(threshold: threshold, destination: destination)
    }

    private init(_ logger: SDKLogger) {
        self.logger = logger
    }

    /// The same logger with `value` under `key` in its metadata.
    package func with(_ key: String, _ value: String) -> PackageLogger {
        PackageLogger(logger.with(key, value))
    }

    /// Logs at `.debug`; the message is only built when that level is passed on.
    package func debug(_ message: @autoclosure () -> String) { logger.debug(message()) }
    /// Logs at `.info`; the message is only built when that level is passed on.
    package func info(_ message: @autoclosure () -> String) { logger.info(message()) }
    /// Logs at `.warning`; the message is only built when that level is passed on.
    package func warning(_ message: @autoclosure () -> String) { logger.warning(message()) }
    /// Logs at `.error`; the message is only built when that level is passed on.
    package func error(_ message: @autoclosure () -> String) { logger.error(message()) }
}

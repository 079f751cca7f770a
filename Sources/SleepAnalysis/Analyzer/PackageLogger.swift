import Foundation

/// The library's logger for the package's other targets (the fleet's workers): the same filtering, label and
/// metadata as the library's own messages, whose logger stays internal to the library.
package struct PackageLogger: Sendable {
    private let logger: SDKLogger

    /// Creates a filtering logger.
    ///
    /// - Parameters:
    ///   - threshold: The threshold; `.noLog` passes nothing.
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

    /// Logs at `.debug`; the message is only built when that severity is passed on. The record names the caller's
    /// file, function and line.
    package func debug(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { logger.debug(message(), file: file, function: function, line: line) }
    /// Logs at `.info`, as `debug` does.
    package func info(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { logger.info(message(), file: file, function: function, line: line) }
    /// Logs at `.warning`, as `debug` does.
    package func warning(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { logger.warning(message(), file: file, function: function, line: line) }
    /// Logs at `.error`, as `debug` does: only failures the caller is not told about otherwise.
    package func error(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { logger.error(message(), file: file, function: function, line: line) }
}

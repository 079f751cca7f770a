import Foundation

/// The logger the library's own code uses: drops records the threshold does not admit, then hands them to the
/// handler with its label and metadata, and the file, function and line of the call.
struct SDKLogger: Sendable {
    /// The threshold; `.noLog` passes nothing.
    let threshold: LogLevel
    /// Where records go.
    let destination: any SleepAnalysisLogHandler
    /// The component's label.
    var label = "SleepAnalysis"
    /// Context added to every record.
    var metadata: SleepAnalysisLogRecord.Metadata = [:]

    /// Creates a filtering logger.
    ///
    /// - Parameters:
    ///   - threshold: The threshold.
    ///   - destination: The receiving handler; nil means standard error.
    init(threshold: LogLevel, destination: (any SleepAnalysisLogHandler)? = nil) {
        self.threshold = threshold
        self.destination = destination ?? StandardErrorLogHandler()
    }

    /// The same logger with `value` under `key` in its metadata.
    func with(_ key: String, _ value: String) -> SDKLogger {
        var copy = self
        copy.metadata[key] = .string(value)
        return copy
    }

    /// A logger that drops everything (for components used before `initialize`).
    static let silent = SDKLogger(threshold: .noLog)

    /// Whether a record of `severity` would be passed on.
    func isEnabled(_ severity: SleepAnalysisLogRecord.Severity) -> Bool { threshold.admits(severity) }

    /// Passes `message` on if `severity` is enabled; the message is only built when it is.
    func log(
        _ severity: SleepAnalysisLogRecord.Severity, _ message: @autoclosure () -> String,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        guard isEnabled(severity) else { return }
        destination.log(
            SleepAnalysisLogRecord(
                severity: severity, label: label, message: message(), metadata: metadata, file: file,
                function: function, line: line))
    }

    /// Logs at `.trace`.
    func trace(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { log(.trace, message(), file: file, function: function, line: line) }
    /// Logs at `.debug`.
    func debug(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { log(.debug, message(), file: file, function: function, line: line) }
    /// Logs at `.info`.
    func info(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { log(.info, message(), file: file, function: function, line: line) }
    /// Logs at `.notice`.
    func notice(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { log(.notice, message(), file: file, function: function, line: line) }
    /// Logs at `.warning`.
    func warning(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { log(.warning, message(), file: file, function: function, line: line) }
    /// Logs at `.error`: only failures the caller is not told about otherwise; a thrown error is its own report.
    func error(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { log(.error, message(), file: file, function: function, line: line) }
    /// Logs at `.critical`.
    func critical(
        _ message: @autoclosure () -> String, file: String = #fileID, function: String = #function, line: UInt = #line
    ) { log(.critical, message(), file: file, function: function, line: line) }
}

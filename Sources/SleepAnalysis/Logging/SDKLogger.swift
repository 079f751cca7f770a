import Foundation

/// The logger the library's own code uses: drops messages below the configured level, then hands them to the
/// handler with its label and metadata.
struct SDKLogger: Sendable {
    /// The lowest level that is passed on; `.noLog` passes nothing.
    let threshold: LogLevel
    /// Where messages go.
    let destination: any SleepAnalysisLogHandler
    /// The component's label.
    var label = "SleepAnalysis"
    /// Context added to every message.
    var metadata: [String: String] = [:]

    /// Creates a filtering logger.
    ///
    /// - Parameters:
    ///   - threshold: The lowest level passed on.
    ///   - destination: The receiving handler; nil means standard error.
    init(threshold: LogLevel, destination: (any SleepAnalysisLogHandler)? = nil) {
        self.threshold = threshold
        self.destination = destination ?? StandardErrorLogHandler()
    }

    /// The same logger with `value` under `key` in its metadata.
    func with(_ key: String, _ value: String) -> SDKLogger {
        var copy = self
        copy.metadata[key] = value
        return copy
    }

    /// A logger that drops everything (for components used before `initialize`).
    static let silent = SDKLogger(threshold: .noLog)

    /// Whether a message at `level` would be passed on.
    func isEnabled(_ level: LogLevel) -> Bool { level != .noLog && threshold != .noLog && level >= threshold }

    /// Passes `message` on if `level` is enabled; the message is only built when it is.
    func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        destination.log(level: level, message: message(), metadata: metadata, label: label)
    }

    /// Logs at `.debug`.
    func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Logs at `.info`.
    func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Logs at `.warning`.
    func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Logs at `.error`.
    func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}

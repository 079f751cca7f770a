import Foundation

/// Receives the library's log records; implement it to route them into your own logging (swift-log, syslog,
/// a file).
///
/// Each ``SleepAnalysisLogRecord`` carries what swift-log's `LogHandler` receives: one of swift-log's seven
/// severities, the component's label, the message, metadata (for example the analyzer it came from) and the module,
/// file, function and line that logged it. The names do not clash with swift-log's, so a file may import both
/// libraries; <doc:Logging> has a handler that forwards to a swift-log `Logger`. The library calls the handler from
/// any thread or task, only for records the `logLevel` given to `initialize` lets through
/// (``LogLevel/admits(_:)``).
///
/// ```swift
/// struct PrintingHandler: SleepAnalysisLogHandler {
///     func log(_ record: SleepAnalysisLogRecord) {
///         print("\(record.file):\(record.line) \(record)")
///     }
/// }
/// try await analyzer.initialize(logLevel: .info, logger: PrintingHandler(), apiKey: key)
/// ```
public protocol SleepAnalysisLogHandler: Sendable {
    /// Records one message.
    ///
    /// - Parameter record: The message with its severity, label, metadata and origin.
    func log(_ record: SleepAnalysisLogRecord)
}

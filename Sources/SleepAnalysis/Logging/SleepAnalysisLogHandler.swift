import Foundation

/// Receives the library's log messages; implement it to route them into your own logging (swift-log's
/// `LogHandler`, syslog, a file).
///
/// Shaped like swift-log: each message comes with its level, the label of the component that logged it and
/// metadata (for example the analyzer it came from). The name does not clash with swift-log's `Logger` or
/// `LogHandler`, so a file may import both libraries. The library calls it from any thread or task, only for
/// messages at or above the level given to `initialize`.
///
/// ```swift
/// struct ForwardingHandler: SleepAnalysisLogHandler {
///     func log(level: LogLevel, message: String, metadata: [String: String], label: String) {
///         print("[\(label)] \(level) \(message) \(metadata)")
///     }
/// }
/// try await analyzer.initialize(logLevel: .info, logger: ForwardingHandler(), apiKey: key)
/// ```
public protocol SleepAnalysisLogHandler: Sendable {
    /// Records one message.
    ///
    /// - Parameters:
    ///   - level: The message's severity (never `.noLog`).
    ///   - message: The text, one line, without a trailing newline.
    ///   - metadata: Key-value pairs about the message's context (e.g. `analyzer`), possibly empty.
    ///   - label: The component that logged it (`SleepAnalysis`).
    func log(level: LogLevel, message: String, metadata: [String: String], label: String)
}

import Foundation

/// The default log handler: one line per message on standard error,
/// `2026-11-30T21:04:32Z [INFO] SleepAnalysis: message analyzer=1f3a09c2`.
public struct StandardErrorLogHandler: SleepAnalysisLogHandler {
    /// Creates a handler that writes to standard error.
    public init() {}

    /// Writes one line to standard error: time, level, label, message, then the metadata as sorted `key=value`.
    ///
    /// - Parameters:
    ///   - level: The message's severity.
    ///   - message: The text.
    ///   - metadata: Key-value pairs, appended in key order.
    ///   - label: The component that logged it.
    public func log(level: LogLevel, message: String, metadata: [String: String], label: String) {
        let time = Date().formatted(.iso8601)
        let context = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let line = "\(time) [\(level)] \(label): \(message)\(context)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

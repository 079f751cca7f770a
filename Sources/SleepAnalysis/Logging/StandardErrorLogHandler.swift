import Foundation

/// The default log handler: one line per message on standard error,
/// `2026-11-30T21:04:32Z [INFO] SleepAnalysis: message analyzer=1f3a09c2`.
public struct StandardErrorLogHandler: SleepAnalysisLogHandler {
    /// Creates a handler that writes to standard error.
    public init() {}

    /// Writes one line to standard error: time, severity, label, message, then the metadata as sorted `key=value`;
    /// control characters (a newline or escape code in a file name) are escaped, so a message is always one line.
    ///
    /// - Parameter record: The message.
    public func log(_ record: SleepAnalysisLogRecord) {
        let line = "\(Date().formatted(.iso8601)) \(MessageText.escaped("\(record)"))\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

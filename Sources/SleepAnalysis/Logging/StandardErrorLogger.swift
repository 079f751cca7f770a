import Foundation

/// The default logger: one line per message on standard error, `2026-11-30T21:04:32Z [INFO] SleepAnalysis: …`.
public struct StandardErrorLogger: Logger {
    /// Creates a logger that writes to standard error.
    public init() {}

    /// Writes one line to standard error.
    ///
    /// - Parameters:
    ///   - level: The message's severity.
    ///   - message: The text.
    public func log(level: LogLevel, message: String) {
        let time = Date().formatted(.iso8601)
        let line = "\(time) [\(level)] SleepAnalysis: \(message)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}

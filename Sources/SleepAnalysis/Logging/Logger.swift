import Foundation

/// Receives the SDK's log messages; implement it to route them into your own logging.
///
/// The SDK calls it from any thread or task, only for messages at or above the level given to `initialize`.
public protocol Logger: Sendable {
    /// Records one message.
    ///
    /// - Parameters:
    ///   - level: The message's severity (never `.noLog`).
    ///   - message: The text, one line, without a trailing newline.
    func log(level: LogLevel, message: String)
}

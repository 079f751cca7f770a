import Foundation
import SleepAnalysis

/// A `Logger` that keeps every message, for tests.
public final class RecordingLogger: Logger, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(LogLevel, String)] = []

    /// Creates an empty logger.
    public init() {}

    /// Keeps the message.
    public func log(level: LogLevel, message: String) {
        lock.lock()
        recorded.append((level, message))
        lock.unlock()
    }

    /// The messages so far, with their levels.
    public var messages: [(level: LogLevel, message: String)] {
        lock.lock()
        defer { lock.unlock() }
        return recorded.map { (level: $0.0, message: $0.1) }
    }
}

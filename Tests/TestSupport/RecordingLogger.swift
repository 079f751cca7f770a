import Foundation
import SleepAnalysis

/// A log handler that keeps every message, for tests.
public final class RecordingLogger: SleepAnalysisLogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(LogLevel, String)] = []
    private var recordedMetadata: [[String: String]] = []

    /// Creates an empty logger.
    public init() {}

    /// Keeps the message.
    public func log(level: LogLevel, message: String, metadata: [String: String], label: String) {
        lock.lock()
        recorded.append((level, message))
        recordedMetadata.append(metadata)
        lock.unlock()
    }

    /// Each message's metadata, in the order of `messages`.
    public var metadata: [[String: String]] {
        lock.lock()
        defer { lock.unlock() }
        return recordedMetadata
    }

    /// The messages so far, with their levels.
    public var messages: [(level: LogLevel, message: String)] {
        lock.lock()
        defer { lock.unlock() }
        return recorded.map { (level: $0.0, message: $0.1) }
    }
}

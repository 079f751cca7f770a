import Foundation
import SleepAnalysis

/// A log handler that keeps every record, for tests.
public final class RecordingLogger: SleepAnalysisLogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [SleepAnalysisLogRecord] = []

    /// Creates an empty logger.
    public init() {}

    /// Keeps the record.
    public func log(_ record: SleepAnalysisLogRecord) {
        lock.lock()
        recorded.append(record)
        lock.unlock()
    }

    /// The records so far.
    public var records: [SleepAnalysisLogRecord] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Each message's metadata as text, in the order of `messages`.
    public var metadata: [[String: String]] { records.map { $0.metadata.mapValues(\.description) } }

    /// The messages so far, with their severities.
    public var messages: [(level: SleepAnalysisLogRecord.Severity, message: String)] {
        records.map { (level: $0.severity, message: $0.message) }
    }
}

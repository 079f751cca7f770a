import Foundation
import SleepAnalysis

/// Log records as JSON, one object per line on standard error (or another file handle), for log collectors
/// (journald, Loki, Elasticsearch): `{"time":"2026-12-07T21:04:32.120Z","level":"warning","label":"SleepAnalysis",
/// "message":"job 7: will be retried: …","metadata":{"worker":"w1"},"source":"SleepAnalysisFleet",
/// "file":"SleepAnalysisFleet/NightWorker+Jobs.swift","line":120}`.
///
/// ```swift
/// let configuration = NightWorkerConfiguration(apiKey: key, logger: JSONLinesLogHandler())
/// ```
public struct JSONLinesLogHandler: SleepAnalysisLogHandler {
    private let handle: FileHandle

    /// A handler writing to `handle` (standard error by default).
    ///
    /// - Parameter handle: Where the lines go.
    public init(handle: FileHandle = .standardError) {
        self.handle = handle
    }

    /// Writes the record as one line of JSON; metadata values as text (nested values through their description).
    ///
    /// - Parameter record: The record.
    public func log(_ record: SleepAnalysisLogRecord) {
        handle.write(Self.line(record, at: Date()))
    }

    /// The line for `record` logged at `time`, with its newline.
    static func line(_ record: SleepAnalysisLogRecord, at time: Date) -> Data {
        struct Line: Encodable {
            var time: String
            var level: String
            var label: String
            var message: String
            var metadata: [String: String]?
            var source: String
            var file: String
            var function: String
            var line: UInt
        }
        let line = Line(
            time: SleepAnalysisJSON.timestamp(time), level: record.severity.rawValue, label: record.label,
            message: record.message,
            metadata: record.metadata.isEmpty ? nil : record.metadata.mapValues(\.description), source: record.source,
            file: record.file, function: record.function, line: record.line)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var data = try? encoder.encode(line) else {
            return Data("{\"level\":\"error\",\"message\":\"a log record could not be encoded\"}\n".utf8)
        }
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

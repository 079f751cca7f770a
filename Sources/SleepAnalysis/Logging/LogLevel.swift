import Foundation

/// How much the SDK logs, from the most to the least verbose; `.noLog` silences it.
///
/// The threshold given to `initialize(logLevel:)`. Records have one of swift-log's seven severities
/// (``SleepAnalysisLogRecord/Severity``); ``admits(_:)`` says which pass: `.debug` lets everything through
/// (`trace` too), `.info` adds `notice` to `info`, and `.error` lets `critical` through with `error`.
public enum LogLevel: Int, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// Everything, including per-step diagnostics.
    case debug = 0
    /// Milestones such as initialization and model downloads.
    case info = 1
    /// Recoverable problems.
    case warning = 2
    /// Failures.
    case error = 3
    /// Nothing at all.
    case noLog = 4

    /// Orders levels by severity (`.debug` < `.info` < `.warning` < `.error` < `.noLog`).
    ///
    /// - Parameters:
    ///   - lhs: A level.
    ///   - rhs: Another level.
    /// - Returns: True when `lhs` is less severe than `rhs`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether a record of `severity` passes this threshold.
    ///
    /// - Parameter severity: The record's severity.
    /// - Returns: False for every severity at `.noLog`; otherwise true from the threshold's own severity up
    ///   (from `trace` at `.debug`).
    public func admits(_ severity: SleepAnalysisLogRecord.Severity) -> Bool {
        switch self {
        case .debug: true
        case .info: severity >= .info
        case .warning: severity >= .warning
        case .error: severity >= .error
        case .noLog: false
        }
    }

    /// The level's name in upper case, as log lines print it.
    public var description: String {
        switch self {
        case .debug: "DEBUG"
        case .info: "INFO"
        case .warning: "WARNING"
        case .error: "ERROR"
        case .noLog: "NOLOG"
        }
    }
}

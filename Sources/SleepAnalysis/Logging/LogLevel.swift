import Foundation

/// How much the SDK logs, from the most to the least verbose; `.noLog` silences it.
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

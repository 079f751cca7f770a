import Foundation

/// A row of the session store that could not be read back (its bytes do not decode), as the tolerant queries
/// (`SessionStore.readableNights(in:)`, `readableResults(in:)`) report it instead of failing for every night.
public struct UnreadableNight: Sendable, Hashable, CustomStringConvertible {
    /// The row's identifier in its store: SQLite's row id, or the night's anchor in PostgreSQL.
    public let rowId: Int64
    /// The session id as stored (text, possibly not a valid UUID).
    public let sessionId: String
    /// When the night started, as stored, if that column is readable.
    public let startTime: Date?
    /// Why it could not be read.
    public let reason: String

    /// Creates a report of an unreadable row.
    ///
    /// - Parameters:
    ///   - rowId: The row's identifier in its store.
    ///   - sessionId: The session id as stored.
    ///   - startTime: When the night started, if readable.
    ///   - reason: Why it could not be read.
    public init(rowId: Int64, sessionId: String, startTime: Date?, reason: String) {
        self.rowId = rowId
        self.sessionId = sessionId
        self.startTime = startTime
        self.reason = reason
    }

    /// One line naming the night and the reason, e.g. `night 1F3A… (row 7, started 2026-11-02T22:00:00Z): …`.
    public var description: String {
        let started = startTime.map { ", started \($0.formatted(.iso8601))" } ?? ""
        return "night \(sessionId) (row \(rowId)\(started)): \(reason)"
    }
}

import Foundation

/// Where a `SessionStore` keeps its nights: the rows and the change counter, in one database's SQL.
///
/// `SessionStore` holds every rule the caller sees (what is encoded, which nights a range selects, how an anchored
/// query pages, how changes are published); a backend only stores and fetches rows, so SQLite (the embedded
/// default) and PostgreSQL answer every query alike. Writes are atomic; each save or delete takes the next anchor.
/// Errors are `SleepCycleSdkError.storageFailure`.
package protocol SessionStoreBackend: Sendable {
    /// Where the store is, for messages (never holding a password).
    var location: String { get }

    /// Replaces a night's rows (and drops its tombstone) under the next anchor.
    ///
    /// - Parameter record: The night, encoded.
    /// - Returns: The anchor the save took.
    func save(_ record: SessionStoreRecord) throws -> SessionStoreAnchor

    /// Deletes a night, leaving a tombstone under the next anchor.
    ///
    /// - Parameter sessionId: The session.
    /// - Returns: The anchor the deletion took, or nil (nothing changed) when there is no such night.
    func delete(sessionId: UUID) throws -> SessionStoreAnchor?

    /// One encoded column of the nights overlapping `range` (see `SessionStoreQuery.overlapping`), ordered by start
    /// time then session id.
    ///
    /// - Parameters:
    ///   - range: The range.
    ///   - column: The column.
    /// - Returns: The rows; a row whose column cannot be read carries the failure instead of failing the query.
    func nights(overlapping range: DateInterval, column: SessionStoreColumn) throws -> [SessionStoreNightRow]

    /// A night's encoded result, or nil when there is no such night.
    func result(sessionId: UUID) throws -> Data?

    /// The stage samples overlapping `range` (`start < range.end AND end > range.start`), ordered by start time
    /// then session id.
    func stageSamples(overlapping range: DateInterval) throws -> [SessionStoreStageRow]

    /// The nights saved and the tombstones left after `anchor`, in anchor order, at most `limit`, with the
    /// current anchor, read from one consistent state.
    ///
    /// - Parameters:
    ///   - anchor: Only changes with a larger anchor.
    ///   - includingDeletions: False leaves the tombstones out.
    ///   - limit: At most this many rows; nil for all.
    /// - Returns: The rows and the current anchor.
    func changes(
        after anchor: SessionStoreAnchor, includingDeletions: Bool, limit: Int?
    ) throws -> (rows: [SessionStoreChangeRow], current: SessionStoreAnchor)

    /// The anchor of the latest change (0 for a store never written).
    func currentAnchor() throws -> SessionStoreAnchor

    /// Starts calling `changed` whenever the store may have been changed through another connection, or returns
    /// nil when the backend cannot tell (then `SessionStore.changes` carries the instance's own changes only).
    ///
    /// - Parameter changed: Called from a thread of the backend's; it must not block for long.
    /// - Returns: The watch, to stop when the store goes away.
    func watchChanges(_ changed: @escaping @Sendable () -> Void) -> (any SessionStoreWatch)?
}

/// A running watch for changes made elsewhere (see `SessionStoreBackend.watchChanges(_:)`).
package protocol SessionStoreWatch: Sendable {
    /// Stops the watch (it calls back no more once this returns, give or take one call in progress).
    func stop()
}

/// The encoded columns of a night.
package enum SessionStoreColumn: String, Sendable {
    /// The `StoredNight` summary.
    case summary
    /// The whole `AnalysisResult`.
    case result
}

/// A night ready to be written: its summary, the encoded summary and result, and the stage rows to index.
package struct SessionStoreRecord: Sendable {
    /// The summary (its columns: id, times, time zone).
    package let night: StoredNight
    /// The encoded summary.
    package let summary: Data
    /// The encoded result.
    package let result: Data
    /// The stage rows: the whole-night stages, or the real-time ones without them.
    package let samples: [SleepStageSample]

    /// Encodes a result for storing.
    ///
    /// - Parameter result: The night.
    /// - Throws: `SleepCycleSdkError.storageFailure` when it cannot be encoded.
    package init(_ result: AnalysisResult) throws {
        night = StoredNight(result: result)
        summary = try PersistenceCoding.encode(night, what: "the night summary")
        self.result = try PersistenceCoding.encode(result, what: "the analysis result")
        samples = result.storedStageIntervals.map {
            SleepStageSample(
                sessionId: result.sessionId, stage: $0.stage, startDate: $0.interval.start, endDate: $0.interval.end)
        }
    }
}

/// One night's row as a range query returns it.
package struct SessionStoreNightRow {
    /// The row's identifier in its store (SQLite's row id; the night's anchor in PostgreSQL), -1 if unreadable.
    package var rowId: Int64
    /// The session id as stored.
    package var sessionId: String
    /// The stored start time, if readable.
    package var startTime: Date?
    /// The encoded column, or why it could not be read.
    package var bytes: Result<Data, any Error>

    /// A row with its fields.
    package init(rowId: Int64, sessionId: String, startTime: Date?, bytes: Result<Data, any Error>) {
        self.rowId = rowId
        self.sessionId = sessionId
        self.startTime = startTime
        self.bytes = bytes
    }
}

/// One stage sample's row.
package struct SessionStoreStageRow {
    /// The session.
    package var sessionId: UUID
    /// The stage's raw value as stored.
    package var stage: String
    /// Its start.
    package var startDate: Date
    /// Its end.
    package var endDate: Date

    /// A row with its fields.
    package init(sessionId: UUID, stage: String, startDate: Date, endDate: Date) {
        self.sessionId = sessionId
        self.stage = stage
        self.startDate = startDate
        self.endDate = endDate
    }
}

/// One row of an anchored query: a saved night's summary or a tombstone.
package enum SessionStoreChangeRow {
    /// A night saved under `anchor`, with its encoded summary.
    case saved(anchor: SessionStoreAnchor, summary: Data)
    /// A night deleted under `anchor`.
    case deleted(anchor: SessionStoreAnchor, sessionId: UUID)

    /// The row's anchor.
    var anchor: SessionStoreAnchor {
        switch self {
        case .saved(let anchor, _), .deleted(let anchor, _): anchor
        }
    }

    /// The change the row stands for.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the summary does not decode.
    func change() throws -> SessionStoreChange {
        switch self {
        case .saved(let anchor, let summary):
            .saved(try PersistenceCoding.decode(StoredNight.self, from: summary, what: "a night"), anchor: anchor)
        case .deleted(let anchor, let sessionId): .deleted(sessionId: sessionId, anchor: anchor)
        }
    }
}

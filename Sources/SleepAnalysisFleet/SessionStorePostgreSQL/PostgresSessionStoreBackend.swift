import Foundation
import SleepAnalysis

/// One subject's nights in PostgreSQL: the session store of a service, shared by any number of processes and
/// machines (see `PostgresSessionStoreSchema`). Changes are announced with `NOTIFY`, watched with `LISTEN`.
struct PostgresSessionStoreBackend: SessionStoreBackend {
    /// Where the database is.
    let address: FleetDatabaseAddress
    /// Whose nights these are.
    let subject: String
    private let database: PostgresDatabase
    private let reconnect: FleetDatabaseReconnectPolicy

    /// Connects to `address` and checks the tables' version (created and upgraded by `queue migrate` alone),
    /// blocking the calling thread.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when the database cannot be reached or its tables are missing,
    ///   older or newer than this library's.
    init(address: FleetDatabaseAddress, subject: String, reconnect: FleetDatabaseReconnectPolicy) throws {
        self.address = address
        self.subject = subject
        self.reconnect = reconnect
        database = PostgresDatabase(address: address, policy: reconnect)
        let database = database
        _ = try Self.storageFailures(location: "subject '\(subject)' at \(address)") {
            try PostgresSessionStoreSchema.migrator.checkBlocking(database)
        }
    }

    var location: String { "the PostgreSQL session store of subject '\(subject)' at \(address)" }

    func save(_ record: SessionStoreRecord) throws -> SessionStoreAnchor {
        try run { connection in
            try connection.transaction { try $0.saveNight(record, subject: subject) }
        }
    }

    func delete(sessionId: UUID) throws -> SessionStoreAnchor? {
        do {
            return try run { connection in
                try connection.transaction { connection in
                    guard let anchor = try connection.deleteNight(sessionId, subject: subject) else {
                        throw NothingDeleted()  // rolls back the anchor taken
                    }
                    return anchor
                }
            }
        } catch is NothingDeleted {
            return nil
        }
    }

    func nights(overlapping range: DateInterval, column: SessionStoreColumn) throws -> [SessionStoreNightRow] {
        let rows = try run { connection in
            try connection.execute(
                """
                SELECT anchor, session_id, start_time, \(column.rawValue)::text FROM session_nights
                WHERE subject_id = $1 AND (start_time < $2::float8 AND end_time > $3::float8
                    OR (start_time = end_time AND start_time >= $3::float8 AND start_time <= $2::float8))
                ORDER BY start_time, session_id
                """, [subject, Self.seconds(range.end), Self.seconds(range.start)]
            ).rows
        }
        return rows.map { row in
            SessionStoreNightRow(
                rowId: (try? row.int64(0)) ?? -1, sessionId: (try? row.text(1)) ?? "with an unreadable id",
                startTime: try? row.date(2), bytes: Result { Data(try row.text(3).utf8) })
        }
    }

    func result(sessionId: UUID) throws -> Data? {
        try run { connection in
            try connection.execute(
                "SELECT result::text FROM session_nights WHERE subject_id = $1 AND session_id = $2::uuid",
                [subject, sessionId.uuidString]
            ).rows.first.map { Data(try $0.text(0).utf8) }
        }
    }

    func stageSamples(overlapping range: DateInterval) throws -> [SessionStoreStageRow] {
        try run { connection in
            try connection.execute(
                """
                SELECT session_id, stage, start_time, end_time FROM session_stage_samples
                WHERE subject_id = $1 AND start_time < $2::float8 AND end_time > $3::float8
                ORDER BY start_time, session_id
                """, [subject, Self.seconds(range.end), Self.seconds(range.start)]
            ).rows.map {
                SessionStoreStageRow(
                    sessionId: try $0.uuid(0), stage: try $0.text(1), startDate: try $0.date(2),
                    endDate: try $0.date(3))
            }
        }
    }

    func changes(
        after anchor: SessionStoreAnchor, includingDeletions: Bool, limit: Int?
    ) throws -> (rows: [SessionStoreChangeRow], current: SessionStoreAnchor) {
        try run { connection in
            try connection.transaction { connection in
                // One snapshot for the rows and the current anchor.
                try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                let rows = try connection.execute(
                    """
                    SELECT anchor, summary::text, NULL::uuid FROM session_nights WHERE subject_id = $1 AND anchor > $2
                    UNION ALL
                    SELECT anchor, NULL, session_id FROM session_tombstones
                    WHERE subject_id = $1 AND anchor > $2 AND $3::boolean
                    ORDER BY 1 LIMIT $4::bigint
                    """,
                    [subject, String(anchor.rawValue), includingDeletions ? "true" : "false", limit.map(String.init)]
                ).rows.map { row -> SessionStoreChangeRow in
                    let anchor = SessionStoreAnchor(rawValue: try row.int64(0))
                    guard let summary = row[1] else { return .deleted(anchor: anchor, sessionId: try row.uuid(2)) }
                    return .saved(anchor: anchor, summary: Data(summary.utf8))
                }
                return (rows, try Self.currentAnchor(connection, subject: subject))
            }
        }
    }

    func currentAnchor() throws -> SessionStoreAnchor {
        try run { try Self.currentAnchor($0, subject: subject) }
    }

    func watchChanges(_ changed: @escaping @Sendable () -> Void) -> (any SessionStoreWatch)? {
        PostgresSessionStoreWatch.start(address: address, subject: subject, reconnect: reconnect, changed: changed)
    }

    // MARK: - Helpers

    /// Thrown inside a deletion's transaction to roll it back when there was nothing to delete.
    private struct NothingDeleted: Error {}

    /// Runs `body` on the store's connection, turning database failures into `storageFailure`.
    private func run<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try Self.storageFailures(location: location) { try database.runBlocking(body) }
    }

    private static func storageFailures<T>(location: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FleetDatabaseError {
            throw SleepCycleSdkError.storageFailure(.init("\(location): \(error)", cause: cause(of: error)))
        }
    }

    /// The SQLSTATE a failure carries as its typed cause: the server's own, else the standard code of the failure's
    /// kind (08001 when no connection could be made, 28000 when the login was refused), so that callers can tell an
    /// outage or a refused login from a bad request without reading the message.
    private static func cause(of error: FleetDatabaseError) -> SleepCycleSdkError.Cause? {
        if let state = error.sqlState { return .postgres(sqlState: state) }
        switch error.kind {
        case .connection: return .postgres(sqlState: "08001")
        case .authentication: return .postgres(sqlState: "28000")
        case .statement, .unexpectedResult, .schemaMismatch: return nil
        }
    }

    private static func currentAnchor(_ connection: PostgresConnection, subject: String) throws -> SessionStoreAnchor {
        let row = try connection.execute("SELECT anchor FROM session_store_subjects WHERE subject_id = $1", [subject])
            .rows.first
        return SessionStoreAnchor(rawValue: try row?.int64(0) ?? 0)
    }

    private static func seconds(_ date: Date) -> String { String(date.timeIntervalSince1970) }
}

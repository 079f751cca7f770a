import Foundation

/// The session store in one SQLite file (`sessions.sqlite`): the embedded default backend.
///
/// Anchors count the changes to the whole file. It has no signal of other processes' writes: their changes show
/// in anchored queries, not on `SessionStore.changes`.
struct SQLiteSessionStoreBackend: SessionStoreBackend {
    /// The schema, as versioned migrations. Never edit a published migration: append a new one.
    static let migrator = SQLiteMigrator(
        schemaName: "session-store",
        migrations: [
            """
            CREATE TABLE store_state (id INTEGER PRIMARY KEY CHECK (id = 1), anchor INTEGER NOT NULL);
            INSERT INTO store_state (id, anchor) VALUES (1, 0);
            CREATE TABLE nights (
                session_id TEXT PRIMARY KEY NOT NULL,
                start_time REAL NOT NULL,
                end_time REAL NOT NULL,
                time_zone TEXT NOT NULL,
                anchor INTEGER NOT NULL,
                summary BLOB NOT NULL,
                result BLOB NOT NULL
            );
            CREATE INDEX nights_by_start ON nights (start_time);
            CREATE INDEX nights_by_anchor ON nights (anchor);
            CREATE TABLE stage_samples (
                session_id TEXT NOT NULL REFERENCES nights (session_id) ON DELETE CASCADE,
                start_time REAL NOT NULL,
                end_time REAL NOT NULL,
                stage TEXT NOT NULL
            );
            CREATE INDEX stage_samples_by_start ON stage_samples (start_time);
            CREATE INDEX stage_samples_by_session ON stage_samples (session_id);
            CREATE TABLE tombstones (session_id TEXT PRIMARY KEY NOT NULL, anchor INTEGER NOT NULL);
            CREATE INDEX tombstones_by_anchor ON tombstones (anchor);
            """
        ])

    /// The database file.
    let database: SQLiteDatabase

    var location: String { database.url.path }

    func save(_ record: SessionStoreRecord) throws -> SessionStoreAnchor {
        let night = record.night
        return try database.write { connection in
            let anchor = try nextAnchor(connection)
            try removeNight(night.sessionId, connection)
            try connection.execute("DELETE FROM tombstones WHERE session_id = ?", [.uuid(night.sessionId)])
            try connection.execute(
                """
                INSERT INTO nights (session_id, start_time, end_time, time_zone, anchor, summary, result)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .uuid(night.sessionId), .date(night.startTime), .date(night.endTime),
                    .text(night.timeZone.identifier), .integer(anchor.rawValue), .blob(record.summary),
                    .blob(record.result),
                ])
            for sample in record.samples {
                try connection.execute(
                    "INSERT INTO stage_samples (session_id, start_time, end_time, stage) VALUES (?, ?, ?, ?)",
                    [
                        .uuid(sample.sessionId), .date(sample.startDate), .date(sample.endDate),
                        .text(sample.stage.rawValue),
                    ])
            }
            return anchor
        }
    }

    func delete(sessionId: UUID) throws -> SessionStoreAnchor? {
        try database.write { connection -> SessionStoreAnchor? in
            guard try !connection.query("SELECT 1 FROM nights WHERE session_id = ?", [.uuid(sessionId)]).isEmpty
            else { return nil }
            let anchor = try nextAnchor(connection)
            try removeNight(sessionId, connection)
            try connection.execute(
                "INSERT OR REPLACE INTO tombstones (session_id, anchor) VALUES (?, ?)",
                [.uuid(sessionId), .integer(anchor.rawValue)])
            return anchor
        }
    }

    func nights(overlapping range: DateInterval, column: SessionStoreColumn) throws -> [SessionStoreNightRow] {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT rowid, session_id, start_time, \(column.rawValue) FROM nights WHERE start_time < ? AND end_time > ?
                OR (start_time = end_time AND start_time >= ? AND start_time <= ?)
                ORDER BY start_time, session_id
                """,
                [.date(range.end), .date(range.start), .date(range.start), .date(range.end)])
        }
        return rows.map { row in
            SessionStoreNightRow(
                rowId: (try? row.int64(0)) ?? -1, sessionId: (try? row.text(1)) ?? "with an unreadable id",
                startTime: try? row.date(2), bytes: Result { try row.blob(3) })
        }
    }

    func result(sessionId: UUID) throws -> Data? {
        try database.read { connection in
            try connection.query("SELECT result FROM nights WHERE session_id = ?", [.uuid(sessionId)]).first?.blob(0)
        }
    }

    func stageSamples(overlapping range: DateInterval) throws -> [SessionStoreStageRow] {
        let rows = try database.read { connection in
            try connection.query(
                """
                SELECT session_id, stage, start_time, end_time FROM stage_samples
                WHERE start_time < ? AND end_time > ?
                ORDER BY start_time, session_id
                """,
                [.date(range.end), .date(range.start)])
        }
        return try rows.map {
            SessionStoreStageRow(
                sessionId: try $0.uuid(0), stage: try $0.text(1), startDate: try $0.date(2), endDate: try $0.date(3))
        }
    }

    func changes(
        after anchor: SessionStoreAnchor, includingDeletions: Bool, limit: Int?
    ) throws -> (rows: [SessionStoreChangeRow], current: SessionStoreAnchor) {
        try database.read { connection in
            let rows = try connection.query(
                """
                SELECT anchor, summary, NULL FROM nights WHERE anchor > ?1
                UNION ALL
                SELECT anchor, NULL, session_id FROM tombstones WHERE anchor > ?1 AND ?2
                ORDER BY anchor LIMIT ?3
                """,
                [.integer(anchor.rawValue), .integer(includingDeletions ? 1 : 0), .integer(Int64(limit ?? -1))])
            let changes = try rows.map { row -> SessionStoreChangeRow in
                let anchor = SessionStoreAnchor(rawValue: try row.int64(0))
                return row.isNull(1)
                    ? .deleted(anchor: anchor, sessionId: try row.uuid(2))
                    : .saved(anchor: anchor, summary: try row.blob(1))
            }
            return (changes, try currentAnchor(connection))
        }
    }

    func currentAnchor() throws -> SessionStoreAnchor {
        try database.read { try currentAnchor($0) }
    }

    func watchChanges(_ changed: @escaping @Sendable () -> Void) -> (any SessionStoreWatch)? { nil }

    // MARK: - Helpers

    private func nextAnchor(_ connection: SQLiteConnection) throws -> SessionStoreAnchor {
        try connection.execute("UPDATE store_state SET anchor = anchor + 1 WHERE id = 1")
        return try currentAnchor(connection)
    }

    private func currentAnchor(_ connection: SQLiteConnection) throws -> SessionStoreAnchor {
        guard let row = try connection.query("SELECT anchor FROM store_state WHERE id = 1").first else {
            throw SleepCycleSdkError.storageFailure("the session store \(location) has no anchor row")
        }
        return SessionStoreAnchor(rawValue: try row.int64(0))
    }

    private func removeNight(_ sessionId: UUID, _ connection: SQLiteConnection) throws {
        try connection.execute("DELETE FROM stage_samples WHERE session_id = ?", [.uuid(sessionId)])
        try connection.execute("DELETE FROM nights WHERE session_id = ?", [.uuid(sessionId)])
    }
}

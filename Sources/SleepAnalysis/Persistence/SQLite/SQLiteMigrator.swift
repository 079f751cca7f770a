import CSQLite
import Foundation

/// Brings a database's schema up to date, one numbered migration at a time, recorded in `schema_version`.
///
/// Migration `i` (0-based) moves the schema from version `i` to `i + 1`; an empty database is at version 0.
/// Each migration runs in its own transaction with its version bump, so a crash mid-way leaves the previous
/// version intact. A file written by a newer library (a version we do not know) or for another purpose (a
/// different schema name) is refused rather than altered.
struct SQLiteMigrator: Sendable {
    /// What the database is for, e.g. `"session-journal"`; stored beside the version.
    let schemaName: String
    /// The migration scripts, oldest first.
    let migrations: [String]

    /// The version the newest migration produces.
    var latestVersion: Int64 { Int64(migrations.count) }

    /// Applies every migration the database has not seen yet.
    ///
    /// - Parameter database: The database to migrate.
    /// - Throws: `SleepCycleSdkError.storageFailure` when a script fails, or the file belongs to a newer
    ///   version or another schema.
    func migrate(_ database: SQLiteDatabase) throws {
        // Each step reads the version and applies the next migration in the same write transaction, so two
        // processes opening a file together never both apply one migration.
        while try database.write({ try applyNextMigration($0, database: database) }) {}
    }

    /// Checks, without writing, that a database opened for reading holds this schema at the latest version.
    ///
    /// - Parameter database: The database, usually opened with `init(readingOnly:)`.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the file holds another schema, an older version (it
    ///   must be opened for writing once to be upgraded) or a newer one.
    func requireCurrent(_ database: SQLiteDatabase) throws {
        let row = try database.read { connection -> SQLiteRow? in
            let tables = try connection.query(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
            guard !tables.isEmpty else { return nil }
            return try connection.query("SELECT name, version FROM schema_version WHERE id = 1").first
        }
        guard let row, try row.text(0) == schemaName else {
            throw SQLiteDatabase.storageError(
                code: SQLITE_ERROR, message: "the file does not hold a '\(schemaName)' schema",
                context: "opening \(database.url.path) for reading")
        }
        let version = try row.int64(1)
        guard version == latestVersion else {
            let advice =
                version < latestVersion
                ? "open it for writing once to upgrade it" : "it was written by a newer library"
            throw SQLiteDatabase.storageError(
                code: SQLITE_ERROR,
                message: "schema version \(version), this library reads \(latestVersion); \(advice)",
                context: "opening \(database.url.path) for reading")
        }
    }

    /// Applies the migration after the database's current version, if any.
    ///
    /// - Returns: True when a migration ran (another may follow), false when the schema is up to date.
    private func applyNextMigration(_ connection: SQLiteConnection, database: SQLiteDatabase) throws -> Bool {
        let current = try currentVersion(connection, database: database)
        guard current <= latestVersion else {
            throw SQLiteDatabase.storageError(
                code: SQLITE_ERROR,
                message: "schema version \(current) is newer than this library's \(latestVersion)",
                context: "opening \(database.url.path)")
        }
        guard current < latestVersion else { return false }
        try connection.executeScript(migrations[Int(current)])
        try connection.execute("UPDATE schema_version SET version = ? WHERE id = 1", [.integer(current + 1)])
        return true
    }

    /// The schema version recorded in the file (creating the record at version 0 in a new file).
    private func currentVersion(_ connection: SQLiteConnection, database: SQLiteDatabase) throws -> Int64 {
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_version (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                name TEXT NOT NULL,
                version INTEGER NOT NULL
            )
            """)
        guard let row = try connection.query("SELECT name, version FROM schema_version WHERE id = 1").first else {
            try connection.execute(
                "INSERT INTO schema_version (id, name, version) VALUES (1, ?, 0)", [.text(schemaName)])
            return 0
        }
        let name = try row.text(0)
        guard name == schemaName else {
            throw SQLiteDatabase.storageError(
                code: SQLITE_ERROR, message: "the file holds a '\(name)' schema, not '\(schemaName)'",
                context: "opening \(database.url.path)")
        }
        return try row.int64(1)
    }
}

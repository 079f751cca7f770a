import Foundation
import SleepAnalysis

/// Brings a PostgreSQL schema up to date, one numbered migration at a time, recorded per schema name in
/// `sleepanalysis_schema_versions`.
///
/// Every run happens in one transaction that first takes a transaction-scoped advisory lock
/// (`pg_advisory_xact_lock`) derived from the schema name: many workers starting together apply each migration
/// exactly once, the others wait and then find the schema current. A database at a version newer than this
/// library knows is refused, not altered.
///
/// Only `migrate` issues DDL (it needs the owner's rights); every other opener calls `check`, which only reads the
/// version, so that roles without `CREATE` work.
struct PostgresMigrator: Sendable {
    /// What the schema is for (e.g. `night-queue`).
    let schemaName: String
    /// The migrations, oldest first; each is a list of statements without parameters.
    let migrations: [[String]]

    /// The version the newest migration produces.
    var latestVersion: Int { migrations.count }

    /// The advisory-lock key: a 64-bit FNV-1a hash of the schema name, so that different schemas migrate
    /// independently.
    var lockKey: Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ("sleepanalysis:" + schemaName).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// Applies every migration the database has not seen yet.
    ///
    /// - Parameter database: The database.
    /// - Returns: The version before migrating.
    /// - Throws: `FleetDatabaseError`: a statement failed (the whole run is rolled back), or the database holds a
    ///   newer version (`unexpectedResult`).
    @discardableResult
    func migrate(_ database: PostgresDatabase) async throws -> Int {
        try await database.transaction { connection in try self.migrate(connection) }
    }

    /// Applies every migration the database has not seen yet, blocking the calling thread; see `migrate(_:)`.
    ///
    /// - Parameter database: The database.
    /// - Returns: The version before migrating.
    /// - Throws: As `migrate(_:)`.
    @discardableResult
    func migrateBlocking(_ database: PostgresDatabase) throws -> Int {
        try database.runBlocking { connection in try connection.transaction { try self.migrate($0) } }
    }

    /// Checks that the database holds exactly this library's version of the schema, without changing anything.
    ///
    /// - Parameter database: The database.
    /// - Throws: `FleetDatabaseError` (`schemaMismatch`) when the schema is missing, older (run `queue migrate`) or
    ///   newer (upgrade the workers); other `FleetDatabaseError`s when the database cannot be read.
    func check(_ database: PostgresDatabase) async throws {
        try await database.run { connection in try self.check(connection) }
    }

    /// Checks the schema's version, blocking the calling thread; see `check(_:)`.
    ///
    /// - Throws: As `check(_:)`.
    func checkBlocking(_ database: PostgresDatabase) throws {
        try database.runBlocking { connection in try self.check(connection) }
    }

    private func check(_ connection: PostgresConnection) throws {
        let current: Int
        do {
            let rows = try connection.execute(
                "SELECT version FROM sleepanalysis_schema_versions WHERE name = $1", [schemaName]
            ).rows
            current = try rows.first.map { Int(try $0.int64(0)) } ?? 0
        } catch let error as FleetDatabaseError where error.sqlState == "42P01" {
            current = 0  // undefined_table: nothing was ever migrated
        }
        if current < latestVersion {
            throw FleetDatabaseError(
                kind: .schemaMismatch,
                message: "the '\(schemaName)' schema is at version \(current), this library needs \(latestVersion): "
                    + "run `sleepanalysis queue migrate` as the database owner")
        }
        if current > latestVersion {
            throw FleetDatabaseError(
                kind: .schemaMismatch,
                message: "the '\(schemaName)' schema is at version \(current), newer than this library's "
                    + "\(latestVersion): upgrade the workers")
        }
    }

    /// Applies the missing migrations inside the caller's transaction.
    private func migrate(_ connection: PostgresConnection) throws -> Int {
        try connection.execute("SELECT pg_advisory_xact_lock($1::bigint)", [String(lockKey)])
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS sleepanalysis_schema_versions (
                name text PRIMARY KEY,
                version integer NOT NULL,
                migrated_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        let rows = try connection.execute(
            "SELECT version FROM sleepanalysis_schema_versions WHERE name = $1", [schemaName]
        ).rows
        let current = try rows.first.map { Int(try $0.int64(0)) } ?? 0
        guard current <= latestVersion else {
            throw FleetDatabaseError(
                kind: .unexpectedResult,
                message: "the '\(schemaName)' schema is at version \(current), newer than this library's "
                    + "\(latestVersion): upgrade the workers")
        }
        guard current < latestVersion else { return current }
        for migration in migrations[current...] {
            for statement in migration { try connection.execute(statement) }
        }
        try connection.execute(
            """
            INSERT INTO sleepanalysis_schema_versions (name, version) VALUES ($1, $2::integer)
            ON CONFLICT (name) DO UPDATE SET version = EXCLUDED.version, migrated_at = now()
            """, [schemaName, String(latestVersion)])
        return current
    }
}

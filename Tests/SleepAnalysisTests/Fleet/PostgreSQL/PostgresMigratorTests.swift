import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Migrations run once, even when many workers start together, and a newer schema is refused.
final class PostgresMigratorTests: PostgresDatabaseTestCase {
    override class var migratesDatabase: Bool { false }
    private func version(_ database: PostgresDatabase) async throws -> Int64? {
        try await database.run { connection in
            try connection.execute(
                "SELECT version FROM sleepanalysis_schema_versions WHERE name = $1", [NightQueueSchema.name]
            ).rows.first?.int64(0)
        }
    }

    func test_migratingTwice_changesNothingTheSecondTime() async throws {
        let database = testDatabase.database()
        let latest = NightQueueSchema.migrator.latestVersion
        let firstFrom = try await NightQueueSchema.migrator.migrate(database)
        XCTAssertEqual(firstFrom, 0)
        let secondFrom = try await NightQueueSchema.migrator.migrate(database)
        XCTAssertEqual(secondFrom, latest)
        let awaited3 = try await version(database)
        XCTAssertEqual(awaited3, Int64(latest))
    }

    func test_manyMigrationsAtOnce_migrateTheQueueExactlyOnce() async throws {
        let address = testDatabase.address
        let before = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await NightQueue.migrate(address: address).first { $0.schema == NightQueueSchema.name }?
                        .fromVersion ?? -1
                }
            }
            var versions: [Int] = []
            for try await version in group { versions.append(version) }
            return versions
        }
        XCTAssertEqual(before.filter { $0 == 0 }.count, 1, "exactly one opener found the empty database: \(before)")
        let database = testDatabase.database()
        let awaited4 = try await version(database)
        XCTAssertEqual(awaited4, Int64(NightQueueSchema.migrator.latestVersion))
        let queue = try await NightQueue(address: address)
        let awaited5 = try await queue.status().count(.queued)
        XCTAssertEqual(awaited5, 0)
    }

    func test_aSchemaNewerThanTheLibrary_isRefused() async throws {
        let database = testDatabase.database()
        try await NightQueueSchema.migrator.migrate(database)
        try await database.run { connection in
            try connection.execute(
                "UPDATE sleepanalysis_schema_versions SET version = 99 WHERE name = $1", [NightQueueSchema.name])
        }
        do {
            try await NightQueueSchema.migrator.migrate(database)
            XCTFail("a newer schema was accepted")
        } catch let error as FleetDatabaseError {
            XCTAssertEqual(error.kind, .unexpectedResult)
            XCTAssertTrue(error.message.contains("newer"), error.message)
        }
    }

    func test_openingAQueue_issuesNoDDL_andNamesTheMigrateCommand_untilMigrated() async throws {
        let address = testDatabase.address
        do {
            _ = try await NightQueue(address: address)
            XCTFail("a queue opened on an empty database")
        } catch let error as FleetDatabaseError {
            XCTAssertEqual(error.kind, .schemaMismatch)
            XCTAssertTrue(error.message.contains("queue migrate"), error.message)
        }
        let tables = try await testDatabase.database().run {
            try $0.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").rows.first?.int64(0)
        }
        XCTAssertEqual(tables, 0, "opening created nothing")
        let steps = try await NightQueue.migrate(address: address)
        XCTAssertEqual(steps.map(\.schema), [NightQueueSchema.name, PostgresSessionStoreSchema.name])
        XCTAssertEqual(steps.map(\.fromVersion), [0, 0])
        let queue = try await NightQueue(address: address)
        let queued = try await queue.status().count(.queued)
        XCTAssertEqual(queued, 0)
        await queue.close()
    }

    func test_version3_keepsJobsQueuedBeforeIt() async throws {
        let database = testDatabase.database()
        let before = PostgresMigrator(
            schemaName: NightQueueSchema.name, migrations: [NightQueueSchema.version1, NightQueueSchema.version2])
        try await before.migrate(database)
        try await database.run { connection in
            try connection.execute(
                "INSERT INTO night_jobs (subject_id, audio_path, start_time) VALUES ('ana', '/n/1.flac', now())")
        }
        try await NightQueue.migrate(address: testDatabase.address)
        let queue = try await NightQueue(address: testDatabase.address)
        let jobs = try await queue.jobs()
        XCTAssertEqual(jobs.map(\.submission.queue), [NightSubmission.defaultQueue])
        XCTAssertEqual(jobs.map(\.submission.priority), [0])
        XCTAssertEqual(jobs.map(\.idempotencyKey), [nil])
        await queue.close()
    }
}

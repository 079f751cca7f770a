import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Migrations run once, even when many workers start together, and a newer schema is refused.
final class PostgresMigratorTests: PostgresDatabaseTestCase {
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

    func test_manyWorkersOpeningTheQueueAtOnce_migrateItExactlyOnce() async throws {
        let address = testDatabase.address
        let before = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try await NightQueueSchema.migrator.migrate(PostgresDatabase(address: address)) }
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
}

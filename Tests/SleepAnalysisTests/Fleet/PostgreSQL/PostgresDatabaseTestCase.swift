import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// A test case with a fresh database of its own on the throw-away cluster (`PostgresTestDatabase`), created before
/// each test and dropped after it; its tests are skipped when no cluster is given.
class PostgresDatabaseTestCase: XCTestCase {
    /// The test's own database.
    var testDatabase: PostgresTestDatabase!
    /// Whether the test database gets the fleet's tables before the test (`queue migrate`).
    class var migratesDatabase: Bool { true }

    override func setUp() async throws {
        try await super.setUp()
        testDatabase = try await PostgresTestDatabase.create(migrated: Self.migratesDatabase)
    }

    override func tearDown() async throws {
        await testDatabase?.drop()
        try await super.tearDown()
    }
}

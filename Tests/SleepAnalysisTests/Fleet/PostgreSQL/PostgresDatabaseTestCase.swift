import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// A test case with a fresh database of its own on the throw-away cluster (`PostgresTestDatabase`), created before
/// each test and dropped after it; its tests are skipped when no cluster is given.
class PostgresDatabaseTestCase: XCTestCase {
    /// The test's own database.
    var testDatabase: PostgresTestDatabase!

    override func setUp() async throws {
        try await super.setUp()
        testDatabase = try await PostgresTestDatabase.create()
    }

    override func tearDown() async throws {
        await testDatabase?.drop()
        try await super.tearDown()
    }
}

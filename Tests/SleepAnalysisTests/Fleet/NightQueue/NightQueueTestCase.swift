import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Base class of the worker tests: a fresh database with a queue on it, and a temporary directory, for each test.
class NightQueueTestCase: PostgresDatabaseTestCase {
    /// The queue on it.
    var queue: NightQueue!
    /// The test's files.
    var directory: TemporaryDirectory!

    override func setUp() async throws {
        try await super.setUp()
        queue = try await NightQueue(address: testDatabase.address)
        directory = try TemporaryDirectory(prefix: "night-queue-test")
    }

    override func tearDown() async throws {
        await queue?.close()
        directory?.remove()
        try await super.tearDown()
    }
}

import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Every `SessionStoreTests` test again, on the PostgreSQL backend (a fresh database of the throw-away cluster per
/// test), and what only PostgreSQL does: changes made through another connection arrive on `changes`
/// (`LISTEN/NOTIFY`), and each subject's nights are apart.
final class PostgresSessionStoreTests: SessionStoreTests {
    private typealias Fixtures = SessionStoreFixtures
    private var testDatabase: PostgresTestDatabase!
    private let subject = "subject-7"

    override func setUp() async throws {
        try await super.setUp()
        testDatabase = try await PostgresTestDatabase.create()
    }

    override func tearDown() async throws {
        await testDatabase?.drop()
        try await super.tearDown()
    }

    override func makeStore() throws -> SessionStore {
        try SessionStore(address: testDatabase.address, subject: subject)
    }

    override func reopened(_ store: SessionStore) throws -> SessionStore {
        XCTAssertNil(store.directory)
        return try SessionStore(address: testDatabase.address, subject: subject)
    }

    func test_changesMadeThroughAnotherConnection_arriveOnTheChangesStream_inOrder() async throws {
        // Given a subscriber to one store, and another store (its own connection) on the same subject
        let watched = try makeStore()
        let stream = watched.changes
        let other = try reopened(watched)
        let received = ReceivedChanges()
        let consumer = Task {
            for await change in stream {
                if received.append(change) == 2 { break }
            }
        }
        defer { consumer.cancel() }

        // When the other store saves a night, and deletes it once the save has arrived (a night saved and deleted
        // before the subscriber catches up arrives as its deletion only, as an anchored query reports it)
        let night = Fixtures.night(startingHoursAfter: 22)
        let saved = try await other.save(night)
        try await received.waitForCount(1)
        let deletion = try await other.delete(sessionId: night.sessionId)
        let deleted = try XCTUnwrap(deletion)
        try await received.waitForCount(2)

        // Then the subscriber received both, in order
        XCTAssertEqual(received.changes, [saved, deleted])
        XCTAssertEqual(received.changes.map(\.anchor.rawValue), [1, 2])
    }

    func test_subjects_areApart_inQueriesAnchorsAndChanges() async throws {
        // Given two subjects' stores in one database, and a subscriber to the second
        let first = try SessionStore(address: testDatabase.address, subject: "subject-a")
        let second = try SessionStore(address: testDatabase.address, subject: "subject-b")
        let secondChanges = second.changes
        let received = Task {
            var changes: [SessionStoreChange] = []
            for await change in secondChanges {
                changes.append(change)
                if changes.count == 1 { break }
            }
            return changes
        }

        // When the first subject saves a night, and both save another with the same session id
        let secondSaved = try saveApartAndCheck(first: first, second: second)

        // And the second subject's stream carried its own change only
        let changes = await received.value
        XCTAssertEqual(changes, [secondSaved])
        XCTAssertThrowsError(try SessionStore(address: testDatabase.address, subject: "")) {
            guard case .invalidConfiguration = $0 as? SleepCycleSdkError else { return XCTFail("\($0)") }
        }
    }

    /// Saves nights for two subjects (one session id in both) and checks each sees its own; returns the second
    /// subject's only change.
    private func saveApartAndCheck(first: SessionStore, second: SessionStore) throws -> SessionStoreChange {
        let own = Fixtures.night(startingHoursAfter: 22)
        try first.save(own)
        var shared = Fixtures.night(startingHoursAfter: 46)
        try first.save(shared)
        shared.endTime = shared.startTime + 120
        let secondSaved = try second.save(shared)

        // Then each subject sees only its own nights, with anchors of its own
        let all = DateInterval(start: .distantPast, end: .distantFuture)
        XCTAssertEqual(try first.nights(in: all).map(\.sessionId), [own.sessionId, shared.sessionId])
        XCTAssertEqual(try second.nights(in: all).map(\.sessionId), [shared.sessionId])
        XCTAssertNil(try second.result(sessionId: own.sessionId))
        XCTAssertEqual(try second.result(sessionId: shared.sessionId)?.endTime, shared.startTime + 120)
        XCTAssertEqual(try first.result(sessionId: shared.sessionId)?.endTime, shared.startTime + 360)
        XCTAssertEqual(try second.stageSamples(in: own.sleepStageIntervals[0].interval), [])
        XCTAssertEqual(try first.currentAnchor().rawValue, 2)
        XCTAssertEqual(try second.currentAnchor().rawValue, 1)
        XCTAssertEqual(secondSaved.anchor.rawValue, 1)
        // Deleting one subject's copy leaves the other's
        try first.delete(sessionId: shared.sessionId)
        XCTAssertNotNil(try second.result(sessionId: shared.sessionId))
        XCTAssertEqual(try second.changes(since: nil).added.map(\.sessionId), [shared.sessionId])
        return secondSaved
    }

    func test_anUnreachableDatabase_isAStorageFailure_withoutThePassword() throws {
        let address = FleetDatabaseAddress("postgresql://someone:hunter2@127.0.0.1:1/none?connect_timeout=2")
        XCTAssertThrowsError(
            try SessionStore(address: address, subject: subject, reconnect: FleetDatabaseReconnectPolicy(attempts: 1))
        ) {
            guard case .storageFailure(let message) = $0 as? SleepCycleSdkError else { return XCTFail("\($0)") }
            XCTAssertFalse(message.message.contains("hunter2"), message.message)
            XCTAssertTrue(message.message.contains("127.0.0.1"), message.message)
        }
    }
}

/// The changes a test's consumer task received, read by the test while the task runs.
///
/// `@unchecked Sendable`: `received` is only touched with `lock` held.
private final class ReceivedChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [SessionStoreChange] = []

    var changes: [SessionStoreChange] { lock.withLock { received } }

    /// Adds a change; returns how many have arrived.
    func append(_ change: SessionStoreChange) -> Int {
        lock.withLock {
            received.append(change)
            return received.count
        }
    }

    /// Waits until `count` changes have arrived, failing the test after 10 seconds.
    func waitForCount(_ count: Int, file: StaticString = #filePath, line: UInt = #line) async throws {
        let deadline = Date().addingTimeInterval(10)
        while changes.count < count {
            guard Date() < deadline else {
                XCTFail("\(changes.count) of \(count) changes arrived within 10 s", file: file, line: line)
                return
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }
}

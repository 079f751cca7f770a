import Foundation
import XCTest

@testable import SleepAnalysis

/// Results kept in the state directory until their store can be written.
final class PendingResultsTests: XCTestCase {
    private typealias Fixtures = SessionStoreFixtures

    func test_kept_results_are_private_and_delivered_only_into_their_own_store() throws {
        // Given two results kept for two stores
        let root = try makeTemporaryDirectory(self)
        let pending = PendingResults(storageDirectory: root)
        let (mine, other) = (Fixtures.night(startingHoursAfter: 22), Fixtures.night(startingHoursAfter: 46))
        let file = try pending.keep(mine, for: root.appendingPathComponent("store"))
        try pending.keep(other, for: root.appendingPathComponent("elsewhere"))
        XCTAssertEqual(file.deletingLastPathComponent().path, root.appendingPathComponent("state/pending-results").path)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)

        // When they are delivered into the first store
        let store = try SessionStore(directory: root.appendingPathComponent("store"))
        XCTAssertEqual(try pending.deliver(into: store), [mine.sessionId])

        // Then only its own result went there, and only the other one is still kept
        XCTAssertEqual(try store.result(sessionId: mine.sessionId), mine)
        XCTAssertNil(try store.result(sessionId: other.sessionId))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertEqual(pending.results(for: root.appendingPathComponent("elsewhere")).map(\.result), [other])
    }
}

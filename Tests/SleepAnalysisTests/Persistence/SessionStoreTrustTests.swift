import Foundation
import XCTest

@testable import SleepAnalysis

/// The session store's failure modes: typed errors naming the file, read-only opening, damaged files moved
/// aside, and damaged rows skipped by the tolerant queries.
final class SessionStoreTrustTests: XCTestCase {
    private typealias Fixtures = SessionStoreFixtures
    private let everything = DateInterval(start: .distantPast, end: .distantFuture)

    func test_a_store_in_a_read_only_directory_opens_for_reading_and_refuses_writing_by_name() throws {
        // Given a store with a night, in a directory nobody can write
        let directory = try makeTemporaryDirectory(self).appendingPathComponent("store")
        let night = Fixtures.night(startingHoursAfter: 22)
        try SessionStore(directory: directory).save(night)
        try makeReadOnly(directory, self)

        // Then it reads, read-only
        let store = try SessionStore(readingFrom: directory)
        XCTAssertTrue(store.isReadOnly)
        XCTAssertEqual(try store.nights(in: everything).map(\.sessionId), [night.sessionId])
        XCTAssertEqual(try store.result(sessionId: night.sessionId), night)

        // And a write fails with a storage failure naming the file
        let message = assertStorageFailure(try store.save(Fixtures.night(startingHoursAfter: 46)))
        XCTAssertTrue(message?.contains(SessionStore.fileName) ?? false, message ?? "")
    }

    func test_reading_never_creates_a_store() throws {
        let directory = try makeTemporaryDirectory(self).appendingPathComponent("none")
        let message = assertStorageFailure(try SessionStore(readingFrom: directory))
        XCTAssertTrue(message?.contains("no such file") ?? false, message ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path))
    }

    func test_a_damaged_store_file_is_moved_aside_and_a_new_store_started() throws {
        // Given a store file full of garbage
        let directory = try makeTemporaryDirectory(self)
        let file = directory.appendingPathComponent(SessionStore.fileName)
        let garbage = Data((0..<9_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
        try garbage.write(to: file)

        // When it is opened for writing
        let store = try SessionStore(directory: directory)

        // Then the garbage is kept aside, and the new store works
        let quarantined = try XCTUnwrap(store.quarantined)
        XCTAssertTrue(quarantined.movedURL.lastPathComponent.hasPrefix("sessions.sqlite.corrupt-"))
        XCTAssertEqual(try Data(contentsOf: quarantined.movedURL), garbage)
        try store.save(Fixtures.night(startingHoursAfter: 22))
        XCTAssertEqual(try store.nights(in: everything).count, 1)
    }

    func test_readable_queries_skip_a_night_that_does_not_decode_and_say_why() throws {
        // Given two nights, the first with a result that does not decode
        let directory = try makeTemporaryDirectory(self)
        let nights = [22.0, 46].map { Fixtures.night(startingHoursAfter: $0) }
        let store = try SessionStore(directory: directory)
        for night in nights { try store.save(night) }
        try corruptResult(of: nights[0].sessionId, in: directory)

        // Then the tolerant query returns the other one and names the damaged one
        let (results, unreadable) = try store.readableResults(in: everything)
        XCTAssertEqual(results, [nights[1]])
        XCTAssertEqual(unreadable.map(\.sessionId), [nights[0].sessionId.uuidString])
        XCTAssertTrue(unreadable[0].description.contains("cannot decode its result: '"), unreadable[0].description)
        XCTAssertFalse(unreadable[0].description.contains("DecodingError"), unreadable[0].description)
        XCTAssertEqual(try store.readableNights(in: everything).nights.count, 2)
    }
}

import XCTest

@testable import SleepAnalysis

/// The session store's behaviour, on the embedded SQLite backend; `PostgresSessionStoreTests` runs every test
/// here again on PostgreSQL by overriding `makeStore()` and `reopened(_:)`.
class SessionStoreTests: XCTestCase {
    private typealias Fixtures = SessionStoreFixtures

    /// A new, empty store.
    func makeStore() throws -> SessionStore {
        try SessionStore(directory: try makeTemporaryDirectory(self).appendingPathComponent("store"))
    }

    /// The same store opened again (a new instance, as another process would).
    func reopened(_ store: SessionStore) throws -> SessionStore {
        try SessionStore(directory: try XCTUnwrap(store.directory))
    }

    func test_save_then_result_roundTrips_the_whole_night_after_reopen() throws {
        let store = try makeStore()
        let night = Fixtures.night(startingHoursAfter: 22)
        try store.save(night)
        let reopened = try reopened(store)
        XCTAssertEqual(try reopened.result(sessionId: night.sessionId), night)
        XCTAssertNil(try reopened.result(sessionId: UUID()))
        if let directory = store.directory {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: directory.appendingPathComponent("sessions.sqlite").path))
        }
    }

    func test_save_is_an_upsert_by_sessionId() throws {
        let store = try makeStore()
        var night = Fixtures.night(startingHoursAfter: 22)
        try store.save(night)
        let deep = SleepStageInterval(stage: .deep, interval: DateInterval(start: night.startTime, duration: 60))
        night.sleepStageIntervals = [deep]
        night.endTime = night.startTime + 60
        try store.save(night)
        let all = DateInterval(start: .distantPast, end: .distantFuture)
        XCTAssertEqual(try store.nights(in: all).map(\.endTime), [night.endTime])
        XCTAssertEqual(try store.stageSamples(in: all).map(\.stage), [.deep])
        XCTAssertEqual(try store.result(sessionId: night.sessionId), night)
    }

    func test_nights_in_range_returns_nights_overlapping_it_in_start_order() throws {
        // Given nights starting at 22:00 on three days (each 6 minutes long)
        let store = try makeStore()
        let day1 = Fixtures.night(startingHoursAfter: 22)
        let day2 = Fixtures.night(startingHoursAfter: 46)
        let day3 = Fixtures.night(startingHoursAfter: 70)
        for night in [day3, day1, day2] { try store.save(night) }

        // When querying a range covering the second day and the start of the third night
        let range = DateInterval(start: Fixtures.november1 + 24 * 3600, end: day3.startTime + 60)
        let nights = try store.nights(in: range)

        // Then the second and third come back, in order, with their summaries
        XCTAssertEqual(nights.map(\.sessionId), [day2.sessionId, day3.sessionId])
        XCTAssertEqual(nights[0].eventCount, 2)
        XCTAssertEqual(nights[0].snoringEventCount, 1)
        XCTAssertEqual(try XCTUnwrap(nights[0].meanBreathingRate), 15, accuracy: 1e-9)
        XCTAssertEqual(nights[0].statistics, day2.statistics)
        XCTAssertEqual(nights[0].timeZone.identifier, "Asia/Tokyo")
        XCTAssertEqual(nights[0].interval, DateInterval(start: day2.startTime, end: day2.endTime))
        // A range ending exactly where a night starts does not overlap it
        XCTAssertEqual(try store.nights(in: DateInterval(start: day1.startTime - 60, end: day1.startTime)), [])
        // A range inside a night finds it
        let inside = DateInterval(start: day1.startTime + 10, duration: 1)
        XCTAssertEqual(try store.nights(in: inside).map(\.sessionId), [day1.sessionId])
    }

    func test_stageSamples_in_range_are_whole_samples_overlapping_it() throws {
        let store = try makeStore()
        let night = Fixtures.night(startingHoursAfter: 22)
        try store.save(night)
        // The deep run is epochs 6..<10 (180 s ... 300 s); ask for 200 s ... 330 s
        let range = DateInterval(start: night.startTime + 200, end: night.startTime + 330)
        let samples = try store.stageSamples(in: range)
        XCTAssertEqual(samples.map(\.stage), [.deep, .rem])
        XCTAssertEqual(samples[0].startDate, night.startTime + 180)
        XCTAssertEqual(samples[0].endDate, night.startTime + 300)
        XCTAssertEqual(samples.map(\.healthKitValue), [.asleepDeep, .asleepREM])
        XCTAssertTrue(samples.allSatisfy { $0.sessionId == night.sessionId })
    }

    func test_changes_since_anchor_returns_only_what_is_new_or_deleted() throws {
        // Given two saved nights and the anchor after them
        let store = try makeStore()
        let first = Fixtures.night(startingHoursAfter: 22)
        let second = Fixtures.night(startingHoursAfter: 46)
        try store.save(first)
        try store.save(second)
        let initial = try store.changes(since: nil)
        XCTAssertEqual(initial.added.map(\.sessionId), [first.sessionId, second.sessionId])
        XCTAssertEqual(initial.deletedIds, [])

        // When a third is saved and the first deleted
        let third = Fixtures.night(startingHoursAfter: 70)
        try store.save(third)
        XCTAssertNotNil(try store.delete(sessionId: first.sessionId))
        XCTAssertNil(try store.delete(sessionId: UUID()), "deleting an unknown night changes nothing")

        // Then the anchored query returns exactly those, with a larger anchor
        let next = try reopened(store).changes(since: initial.anchor)
        XCTAssertEqual(next.added.map(\.sessionId), [third.sessionId])
        XCTAssertEqual(next.deletedIds, [first.sessionId])
        XCTAssertGreaterThan(next.anchor, initial.anchor)
        XCTAssertEqual(next.anchor, try store.currentAnchor())
        // And nothing more after it
        let none = try store.changes(since: next.anchor)
        XCTAssertEqual(none.added, [])
        XCTAssertEqual(none.deletedIds, [])
        XCTAssertEqual(none.anchor, next.anchor)
        // The deleted night is gone from every query
        XCTAssertNil(try store.result(sessionId: first.sessionId))
        XCTAssertEqual(try store.stageSamples(in: first.sleepStageIntervals[0].interval), [])
        // A night saved again after deletion is added, not deleted
        try store.save(first)
        let again = try store.changes(since: next.anchor)
        XCTAssertEqual(again.added.map(\.sessionId), [first.sessionId])
        XCTAssertEqual(again.deletedIds, [])
    }

    func test_anchor_roundTrips_through_codable() throws {
        let anchor = SessionStoreAnchor(rawValue: 42)
        let data = try JSONEncoder().encode(anchor)
        XCTAssertEqual(try JSONDecoder().decode(SessionStoreAnchor.self, from: data), anchor)
    }

    func test_changes_stream_delivers_to_two_subscribers_and_ends_when_store_is_released() async throws {
        // Given two subscribers
        var store: SessionStore? = try makeStore()
        let first = try XCTUnwrap(store).changes
        let second = try XCTUnwrap(store).changes
        let collect: @Sendable (AsyncStream<SessionStoreChange>) async -> [SessionStoreChange] = { stream in
            var received: [SessionStoreChange] = []
            for await change in stream { received.append(change) }
            return received
        }
        async let firstReceived = collect(first)
        async let secondReceived = collect(second)

        // When a night is saved and deleted, then the store goes away
        let night = Fixtures.night(startingHoursAfter: 22)
        let saved = try await XCTUnwrap(store).save(night)
        let deletion = try await XCTUnwrap(store).delete(sessionId: night.sessionId)
        let deleted = try XCTUnwrap(deletion)
        store = nil

        // Then both saw both changes, in order, and their streams ended
        let expected = [saved, deleted]
        let results = await (firstReceived, secondReceived)
        XCTAssertEqual(results.0, expected)
        XCTAssertEqual(results.1, expected)
        XCTAssertEqual(expected.map(\.sessionId), [night.sessionId, night.sessionId])
        XCTAssertLessThan(expected[0].anchor, expected[1].anchor)
    }

    func test_changes_subscriber_is_removed_when_its_stream_terminates() async throws {
        let store = try makeStore()
        let task = Task {
            for await _ in store.changes {}
        }
        while store.subscriberCount == 0 { await Task.yield() }
        XCTAssertEqual(store.subscriberCount, 1)
        task.cancel()
        await task.value
        XCTAssertEqual(store.subscriberCount, 0)
    }

    func test_concurrent_saves_publish_strictly_increasing_anchors() async throws {
        // Given a subscriber and four tasks saving ten nights each at once
        let store = try makeStore()
        let stream = store.changes
        let consumer = Task {
            var anchors: [Int64] = []
            for await change in stream {
                anchors.append(change.anchor.rawValue)
                if anchors.count == 40 { break }
            }
            return anchors
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for night in 0..<10 {
                        try store.save(Fixtures.night(startingHoursAfter: Double(writer * 10 + night) * 24))
                    }
                }
            }
            try await group.waitForAll()
        }
        // Then the subscriber saw every change once, in anchor order, and the store holds all forty
        let anchors = await consumer.value
        XCTAssertEqual(anchors, Array(1...40))
        // The async calls read the same store from its own queue.
        let added = try await store.changes(since: nil).added.count
        let anchor = try await store.currentAnchor().rawValue
        XCTAssertEqual(added, 40)
        XCTAssertEqual(anchor, 40)
    }

    func test_changes_with_limit_pages_through_saves_and_deletions_in_order() throws {
        // Given three saves and a deletion after an anchor
        let store = try makeStore()
        let start = try store.currentAnchor()
        let nights = [22.0, 46, 70].map { Fixtures.night(startingHoursAfter: $0) }
        for night in nights { try store.save(night) }
        try store.delete(sessionId: nights[0].sessionId)

        // When paging two changes at a time
        let page1 = try store.changes(since: start, limit: 2)
        let page2 = try store.changes(since: page1.anchor, limit: 2)
        let page3 = try store.changes(since: page2.anchor, limit: 2)

        // Then the pages hold the changes in anchor order, and the last page is empty at the current anchor
        XCTAssertEqual(page1.added.map(\.sessionId), [nights[1].sessionId, nights[2].sessionId])
        XCTAssertEqual(page1.deletedIds, [])
        XCTAssertEqual(page2.added, [])
        XCTAssertEqual(page2.deletedIds, [nights[0].sessionId])
        XCTAssertEqual(page3.added, [])
        XCTAssertEqual(page3.deletedIds, [])
        XCTAssertEqual(page3.anchor, try store.currentAnchor())
        XCTAssertThrowsError(try store.changes(since: nil, limit: 0)) {
            guard case .invalidConfiguration = $0 as? SleepCycleSdkError else { return XCTFail("\($0)") }
        }
    }

    /// An actor that uses the store, as a service would.
    private actor Archive {
        let store: SessionStore
        init(store: SessionStore) { self.store = store }

        func keep(_ night: AnalysisResult) async throws { try await store.save(night) }
        func all() async throws -> [StoredNight] {
            try await store.nights(in: DateInterval(start: .distantPast, end: .distantFuture))
        }
    }

    /// The `async` calls: the same store, its blocking work done on the store's own queue.
    func test_asyncCalls_fromManyTasks_storeAndReadEveryNight() async throws {
        let archive = Archive(store: try makeStore())
        let nights = (0..<24).map { SessionStoreFixtures.night(startingHoursAfter: Double($0) * 24) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for night in nights { group.addTask { try await archive.keep(night) } }
            try await group.waitForAll()
        }
        let stored = try await archive.all()
        XCTAssertEqual(Set(stored.map(\.sessionId)), Set(nights.map(\.sessionId)))
        let store = archive.store
        let first = try await store.result(sessionId: nights[0].sessionId)
        XCTAssertEqual(first, nights[0])
        let samples = try await store.stageSamples(in: nights[3].sleepStageIntervals[0].interval)
        XCTAssertFalse(samples.isEmpty)
        let removed = try await store.delete(sessionId: nights[0].sessionId)
        XCTAssertNotNil(removed)
        let missing = try await store.result(sessionId: nights[0].sessionId)
        XCTAssertNil(missing)
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `analyze --store DIR` when the store cannot be written: the result is printed, the command exits 73 with the
/// reason, the result is kept in the state directory, and the next `analyze --store DIR` stores it.
final class StoreFailureCommandTests: XCTestCase {
    /// The bundled accelerometer night.
    private var accelerometer: String {
        FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv").path
    }

    /// `analyze` of the bundled accelerometer night (about a second), starting at `start`.
    private func analyze(start: String, storage: URL, store: URL) throws -> ToolOutput {
        try runCommandLineTool(
            [
                "analyze", "-", "--accelerometer", accelerometer, "--start", start, "--storage", storage.path,
                "--store", store.path, "--format", "json", "--quiet",
            ], timeout: 120)
    }

    /// The session id of the JSON result printed by `analyze`.
    private func printedSession(_ output: ToolOutput) throws -> String {
        let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["sessionId"] as? String, output.standardOutput)
    }

    /// The session ids the store holds.
    private func storedSessions(_ store: URL) throws -> Set<String> {
        let nights = try SessionStore(readingFrom: store).nights(
            in: DateInterval(start: .distantPast, end: .distantFuture))
        return Set(nights.map(\.sessionId.uuidString))
    }

    func test_analyze_with_a_read_only_store_prints_the_result_exits_73_and_the_next_run_stores_it() throws {
        // Given a store directory nobody can write
        let root = try makeTemporaryDirectory(self)
        let store = root.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try makeReadOnly(store, self)
        let storage = root.appendingPathComponent("storage")

        // When a night is analysed into it
        let first = try analyze(start: "2026-12-01T23:00:00Z", storage: storage, store: store)

        // Then the result is printed, the command fails with the reason, and the result is kept
        XCTAssertEqual(first.status, 73, first.standardError)
        let firstSession = try printedSession(first)
        XCTAssertTrue(first.standardError.contains("not stored in \(store.path)"), first.standardError)
        let kept = storage.appendingPathComponent("state/pending-results/\(firstSession).json")
        XCTAssertTrue(FileManager.default.fileExists(atPath: kept.path), first.standardError)
        XCTAssertTrue(first.standardError.contains(kept.path), first.standardError)

        // When the store can be written again and the next night is analysed
        try runTool("/usr/bin/chattr", ["-i", store.path])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: store.path)
        let second = try analyze(start: "2026-12-02T23:00:00Z", storage: storage, store: store)

        // Then both nights are stored and nothing is kept any more
        XCTAssertEqual(second.status, 0, second.standardError)
        XCTAssertEqual(try storedSessions(store), [firstSession, try printedSession(second)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: kept.path))
    }

    func test_analyze_on_a_full_disk_prints_the_result_keeps_it_and_stores_it_once_there_is_room() throws {
        // Given a store on a disk with no free byte left
        let root = try makeTemporaryDirectory(self)
        let disk = try FullFilesystem(under: root, kilobytes: 512, self)
        let store = disk.url.appendingPathComponent("store")
        _ = try SessionStore(directory: store)
        try disk.fill()
        let storage = root.appendingPathComponent("storage")

        // When a night is analysed into it
        let full = try analyze(start: "2026-12-01T23:00:00Z", storage: storage, store: store)

        // Then the result is printed, the reason given, and the result kept
        XCTAssertEqual(full.status, 73, full.standardError)
        let session = try printedSession(full)
        XCTAssertTrue(full.standardError.contains("No space left on device"), full.standardError)
        XCTAssertTrue(full.standardError.contains(SessionStore.fileName), full.standardError)

        // When there is room again, the next run stores the kept night too
        try disk.free()
        let next = try analyze(start: "2026-12-02T23:00:00Z", storage: storage, store: store)
        XCTAssertEqual(next.status, 0, next.standardError)
        XCTAssertEqual(try storedSessions(store), [session, try printedSession(next)])
    }

    func test_analyze_with_a_corrupt_row_in_the_store_warns_and_stores_the_night() throws {
        // Given a store whose night of the day before has a result that does not decode
        let root = try makeTemporaryDirectory(self)
        let store = root.appendingPathComponent("store")
        let earlier = SessionStoreFixtures.night(startingHoursAfter: 0)
        try SessionStore(directory: store).save(earlier)
        try corruptResult(of: earlier.sessionId, in: store)

        // When a night is analysed into it
        let output = try analyze(
            start: SleepAnalysisJSON.timestamp(earlier.startTime.addingTimeInterval(86_400)),
            storage: root.appendingPathComponent("storage"), store: store)

        // Then the night is printed and stored, and the unreadable one named in a warning
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertTrue(try storedSessions(store).contains(try printedSession(output)))
        XCTAssertTrue(output.standardError.contains(earlier.sessionId.uuidString), output.standardError)
        XCTAssertFalse(output.standardError.contains("DecodingError"), output.standardError)
    }
}

/// Overwrites a stored night's result with bytes that do not decode, as a damaged row would hold.
///
/// - Parameters:
///   - sessionId: The night.
///   - store: The store directory.
func corruptResult(of sessionId: UUID, in store: URL) throws {
    let database = try SQLiteDatabase(url: store.appendingPathComponent(SessionStore.fileName))
    try database.write {
        try $0.execute(
            "UPDATE nights SET result = ? WHERE session_id = ?",
            [.blob(Data("{\"sessionId\": 7}".utf8)), .uuid(sessionId)])
    }
}

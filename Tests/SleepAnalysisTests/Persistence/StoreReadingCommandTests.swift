import Foundation
import XCTest

@testable import SleepAnalysis

/// `history` and `export --healthkit` read what can be read: a store nobody can write, and every night of a
/// store one of whose rows is damaged (that one skipped with a warning).
final class StoreReadingCommandTests: XCTestCase {
    private typealias Fixtures = SessionStoreFixtures

    /// A store with two nights, closed (so everything is in the main file).
    private func makeStore() throws -> (URL, [AnalysisResult]) {
        let directory = try makeTemporaryDirectory(self).appendingPathComponent("store")
        let nights = [22.0, 46].map { Fixtures.night(startingHoursAfter: $0) }
        let store = try SessionStore(directory: directory)
        for night in nights { try store.save(night) }
        return (directory, nights)
    }

    /// Runs `history` (JSON) and `export --healthkit` (CSV) on `store`.
    private func historyAndExport(_ store: URL) throws -> (history: ToolOutput, export: ToolOutput) {
        (
            try runCommandLineTool(["history", "--store", store.path, "--format", "json"]),
            try runCommandLineTool(["export", "--healthkit", "--store", store.path, "--format", "csv"])
        )
    }

    /// Asserts that both commands succeeded and listed every night.
    private func assertBothNightsListed(
        _ outputs: (history: ToolOutput, export: ToolOutput), _ nights: [AnalysisResult],
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for output in [outputs.history, outputs.export] {
            XCTAssertEqual(output.status, 0, output.standardError, file: file, line: line)
            for night in nights {
                XCTAssertTrue(
                    output.standardOutput.contains(night.sessionId.uuidString), output.standardError, file: file,
                    line: line)
            }
        }
    }

    func test_history_and_export_read_a_store_in_a_read_only_directory() throws {
        let (store, nights) = try makeStore()
        try makeReadOnly(store, self)
        assertBothNightsListed(try historyAndExport(store), nights)
    }

    func test_history_and_export_read_a_read_only_store_file() throws {
        let (store, nights) = try makeStore()
        try makeReadOnly(store.appendingPathComponent(SessionStore.fileName), self)
        assertBothNightsListed(try historyAndExport(store), nights)
    }

    func test_history_and_export_skip_a_corrupt_row_with_a_warning_naming_it() throws {
        // Given a store where one night's summary and result do not decode
        let (store, nights) = try makeStore()
        let database = try SQLiteDatabase(url: store.appendingPathComponent(SessionStore.fileName))
        try database.write {
            try $0.execute(
                "UPDATE nights SET summary = ?, result = ? WHERE session_id = ?",
                [.blob(Data("{\"sessionId\"".utf8)), .blob(Data("[1, 2]".utf8)), .uuid(nights[0].sessionId)])
        }

        // When the nights are listed and exported
        let (history, export) = try historyAndExport(store)

        // Then the other night is there, and the damaged one is named in a warning, not a DecodingError
        for output in [history, export] {
            XCTAssertEqual(output.status, 0, output.standardError)
            XCTAssertTrue(output.standardOutput.contains(nights[1].sessionId.uuidString), output.standardOutput)
            XCTAssertFalse(output.standardOutput.contains(nights[0].sessionId.uuidString), output.standardOutput)
            XCTAssertTrue(output.standardError.contains("warning"), output.standardError)
            XCTAssertTrue(output.standardError.contains(nights[0].sessionId.uuidString), output.standardError)
            XCTAssertFalse(output.standardError.contains("DecodingError"), output.standardError)
        }
    }
}

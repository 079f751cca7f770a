import Foundation
import TestSupport
import XCTest

@_spi(Internal) @testable import SleepAnalysis

/// A damaged session journal is moved aside (`journal.sqlite.corrupt-<time>`) with a warning saying where, and
/// never blocks the next `analyze`; flipped bytes are reported as damage, not as "no unfinished session".
final class JournalQuarantineCommandTests: XCTestCase {
    /// The bundled accelerometer night.
    private var accelerometer: URL { FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv") }

    /// `analyze` of the accelerometer night in the storage directory `storage`.
    private func analyze(storage: URL, _ extra: [String] = []) throws -> ToolOutput {
        try runCommandLineTool(
            ["analyze", "-", "--accelerometer", accelerometer.path, "--storage", storage.path, "--quiet"] + extra,
            timeout: 120)
    }

    /// The files `analyze` set aside in the state directory.
    private func quarantined(_ storage: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: storage.appendingPathComponent("state").path)
            .filter { $0.hasPrefix("journal.sqlite.corrupt-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }
    }

    func test_a_garbage_journal_is_quarantined_and_analyze_works() throws {
        // Given a state directory whose journal is not a database at all
        let storage = try makeTemporaryDirectory(self)
        let journal = storage.appendingPathComponent("state/journal.sqlite")
        try FileManager.default.createDirectory(
            at: journal.deletingLastPathComponent(), withIntermediateDirectories: true)
        let garbage = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        try garbage.write(to: journal)

        // When a night is analysed there
        let output = try analyze(storage: storage)

        // Then it works, and the garbage is kept aside with a warning saying where
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertTrue(output.standardOutput.contains("sleep"), output.standardOutput)
        let moved = try XCTUnwrap(try quarantined(storage).first, "no journal.sqlite.corrupt-* file")
        XCTAssertTrue(output.standardError.contains(moved), output.standardError)
        let aside = storage.appendingPathComponent("state").appendingPathComponent(moved)
        XCTAssertEqual(try Data(contentsOf: aside), garbage)
    }

    func test_flipped_bytes_in_a_journal_are_reported_as_damage_and_the_next_analyze_works() async throws {
        // Given an unfinished session in the journal, whose record then has bytes flipped
        let storage = try makeTemporaryDirectory(self)
        try await journalUnfinishedSession(in: storage)
        let journal = storage.appendingPathComponent("state/journal.sqlite")
        try flipBytes(in: journal)

        // When the session is resumed
        let resumed = try analyze(storage: storage, ["--resume"])

        // Then the damage is reported, and where the journal went, not "no unfinished session"
        XCTAssertNotEqual(resumed.status, 0)
        XCTAssertFalse(resumed.standardError.contains("no unfinished session"), resumed.standardError)
        XCTAssertTrue(resumed.standardError.contains("damaged"), resumed.standardError)
        let moved = try XCTUnwrap(try quarantined(storage).first, "no journal.sqlite.corrupt-* file")
        XCTAssertTrue(resumed.standardError.contains(moved), resumed.standardError)

        // And a new night analyses in the same state directory
        let next = try analyze(storage: storage)
        XCTAssertEqual(next.status, 0, next.standardError)
    }

    /// Journals a session on the accelerometer night and leaves it unfinished, as a killed process would; the
    /// journal is then rewritten as one self-contained file, so that everything is in its main file.
    private func journalUnfinishedSession(in storage: URL) async throws {
        let licence = try TestLicenses.make()
        let analyzer = SleepAnalyzer()
        try await analyzer.initialize(
            logLevel: .noLog, apiKey: licence.apiKey, storageDirectory: storage,
            trustedIssuerKeys: [licence.trustedKey])
        let source = analyzer.createFileDataSource(audio: nil, accelerometer: accelerometer)
        try await analyzer.startAnalysis(config: SleepAnalysisConfig(useAccelerometer: true), using: source)
        await source.waitUntilFinished()
        await analyzer.deinitialize()
        let url = storage.appendingPathComponent("state/journal.sqlite")
        let compact = storage.appendingPathComponent("state/journal-compact.sqlite")
        do {
            let journal = try SessionJournal(databaseURL: url)
            XCTAssertEqual(try journal.activeSessions().count, 1)
            // A self-contained copy, so the record is in the main file whatever the write-ahead log still holds.
            try journal.copy(to: compact)
        }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try FileManager.default.moveItem(at: compact, to: url)
    }

    /// Inverts 48 bytes of the session's record where it is stored in the file (found by its time zone field).
    private func flipBytes(in journal: URL) throws {
        var bytes = try Data(contentsOf: journal)
        let marker = Data("\"timeZoneIdentifier\"".utf8)
        let found = try XCTUnwrap(bytes.range(of: marker), "the session record is not in the main file")
        for index in found.lowerBound..<min(found.lowerBound + 48, bytes.count) { bytes[index] ^= 0xFF }
        try bytes.write(to: journal)
    }
}

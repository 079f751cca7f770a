import XCTest

@_spi(Internal) @testable import SleepAnalysis

/// Kills a process that is writing the journal with SIGKILL and checks what survives.
final class SessionJournalCrashTests: XCTestCase {
    /// Must match `JournalWriterCommand` in the command-line tool.
    private struct WriterItem: Codable {
        var batch: Int64
        var index: Int
        var padding: String
    }

    private let batchSize = 8

    func test_journal_after_SIGKILL_holds_a_whole_prefix_of_batches_and_resumes() throws {
        // Given a writer process journaling 8-record batches into one session
        let url = try makeTemporaryDirectory(self).appendingPathComponent("journal.sqlite")
        let sessionId = UUID()
        var batchesSeen: Int64 = 0
        for round in 0..<3 {
            // When it is killed with SIGKILL while it writes (three times, resuming in between)
            let killedAt = try runWriterAndKill(url: url, sessionId: sessionId, afterBatches: batchesSeen + 40)

            // Then the reopened journal holds whole batches 0..<n and the checkpoint says n
            let journal = try SessionJournal(databaseURL: url)
            XCTAssertEqual(try journal.activeSessions().map(\.sessionId), [sessionId])
            let items = try journal.records(of: WriterItem.self, kind: "writerItem", sessionId: sessionId)
            XCTAssertEqual(items.count % batchSize, 0, "round \(round): a partial batch survived")
            let batches = Int64(items.count / batchSize)
            let misplaced = items.enumerated().first { offset, item in
                item.batch != Int64(offset / batchSize) || item.index != offset % batchSize
            }
            XCTAssertNil(misplaced, "round \(round): records out of order or missing")
            let checkpoint = try XCTUnwrap(journal.checkpoint(sessionId: sessionId))
            XCTAssertEqual(checkpoint.sampleIndex, batches, "round \(round): checkpoint and records disagree")
            XCTAssertEqual(
                checkpoint.processedUntil, Date(timeIntervalSince1970: 1_800_000_000 + 30 * Double(batches)))
            XCTAssertGreaterThanOrEqual(batches, killedAt, "round \(round): a batch seen committed was lost")
            XCTAssertGreaterThan(batches, batchesSeen, "round \(round): the writer made no progress")
            batchesSeen = batches
        }
    }

    /// Starts the writer, waits (at most a few seconds) until `afterBatches` are committed, kills it.
    /// - Returns: The number of batches a reader had seen committed just before the kill.
    private func runWriterAndKill(url: URL, sessionId: UUID, afterBatches: Int64) throws -> Int64 {
        let process = Process()
        process.executableURL = try builtCommandLineTool()
        process.arguments = [
            "__journal-writer", url.path, "--session", sessionId.uuidString, "--batch-size", String(batchSize),
            "--max-seconds", "20",
        ]
        process.standardOutput = FileHandle.nullDevice
        let errorLog = url.deletingLastPathComponent().appendingPathComponent("writer-stderr.txt")
        XCTAssertTrue(FileManager.default.createFile(atPath: errorLog.path, contents: nil))
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        var committed: Int64 = 0
        let deadline = Date().addingTimeInterval(8)
        while Date() < deadline && process.isRunning {
            if FileManager.default.fileExists(atPath: url.path),
                let journal = try? SessionJournal(databaseURL: url),
                let checkpoint = try? journal.checkpoint(sessionId: sessionId)
            {
                committed = checkpoint.sampleIndex
                if committed >= afterBatches { break }
            }
            usleep(2_000)
        }
        if !process.isRunning {
            let said = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            XCTFail("the writer stopped before it was killed: \(said)")
        }
        XCTAssertEqual(kill(process.processIdentifier, SIGKILL), 0)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, SIGKILL)
        XCTAssertGreaterThanOrEqual(committed, afterBatches, "the writer was too slow")
        return committed
    }
}

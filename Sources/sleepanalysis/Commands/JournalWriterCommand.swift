import CommandLineKit
import Foundation
@_spi(Internal) import SleepAnalysis

/// `sleepanalysis __journal-writer DB --session UUID [--batch-size N] [--max-seconds S]` (hidden, for tests):
/// journals numbered batches into a session as fast as it can, resuming from the session's checkpoint, until
/// it is killed or `--max-seconds` pass. The crash-safety test kills it with SIGKILL and checks that the
/// journal holds whole batches only.
enum JournalWriterCommand: Command {
    static let name = "__journal-writer"
    static let summary = "(internal) journal numbered batches until killed, for the crash-safety test"
    static let specification = ArgumentSpecification(
        options: ["session", "batch-size", "max-seconds"],
        positionals: ["DB"],
        usage: "usage: sleepanalysis __journal-writer DB --session UUID [--batch-size N] [--max-seconds S]\n")

    /// The kind of the records it writes.
    static let recordKind = "writerItem"

    /// One journaled item: which batch, which position in it, and some padding so that a batch spans pages.
    struct Item: Codable, Equatable {
        /// The batch number, from 0.
        var batch: Int64
        /// The position inside the batch, from 0.
        var index: Int
        /// Padding.
        var padding: String
    }

    static func run(_ arguments: [String]) async throws {
        let parsed = try ArgumentParser.parse(arguments, specification)
        guard let sessionId = parsed.option("session").flatMap(UUID.init(uuidString:)) else {
            throw CommandLineError.usage("--session needs a UUID", usage: specification.usage)
        }
        let batchSize = try parsed.option("batch-size", as: Int.self) ?? 8
        let maxSeconds = try parsed.option("max-seconds", as: Double.self) ?? 30
        guard batchSize > 0, maxSeconds > 0 else {
            throw CommandLineError.usage("--batch-size and --max-seconds must be positive", usage: specification.usage)
        }
        let journal = try SessionJournal(databaseURL: URL(fileURLWithPath: parsed.positionals[0]))
        let origin = Date(timeIntervalSince1970: 1_800_000_000)
        if try journal.session(sessionId) == nil {
            try journal.beginSession(
                JournalSession(
                    sessionId: sessionId, channel: .primary, config: SleepAnalysisConfig(), smartAlarmConfig: nil,
                    startTime: origin, timeZoneIdentifier: "UTC", enabledFeatures: ["sleepStaging"],
                    sourceDescription: "journal writer", sourceStartTime: origin))
        }
        var batch = try journal.checkpoint(sessionId: sessionId)?.sampleIndex ?? 0
        let deadline = Date().addingTimeInterval(maxSeconds)
        let padding = String(repeating: "x", count: 1_500)
        while Date() < deadline {
            let time = origin.addingTimeInterval(30 * Double(batch + 1))
            let entries = try (0..<batchSize).map {
                try JournalEntry(Item(batch: batch, index: $0, padding: padding), kind: recordKind, time: time)
            }
            let checkpoint = JournalCheckpoint(processedUntil: time, sampleIndex: batch + 1)
            try journal.appendBatch(entries, sessionId: sessionId, checkpoint: checkpoint)
            batch += 1
        }
    }
}

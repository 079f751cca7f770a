import Foundation
@_spi(Internal) import SleepAnalysis

/// `sleepanalysis __journal-writer DB --session UUID [--batch-size N] [--max-seconds S]` (hidden, for tests):
/// journals numbered batches into a session as fast as it can, resuming from the session's checkpoint, until
/// it is killed or `--max-seconds` pass. The crash-safety test kills it with SIGKILL and checks that the
/// journal holds whole batches only.
enum JournalWriterCommand {
    /// The hidden subcommand's name.
    static let name = "__journal-writer"

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

    /// Runs the command.
    ///
    /// - Parameter arguments: The arguments after the subcommand's name.
    /// - Returns: The exit status.
    /// - Throws: `SleepCycleSdkError` on bad arguments or storage failures.
    static func run(_ arguments: [String]) throws -> Int32 {
        var positional: [String] = []
        var options: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                guard let value = iterator.next() else {
                    throw SleepCycleSdkError.invalidConfiguration("\(argument) needs a value")
                }
                options[String(argument.dropFirst(2))] = value
            } else {
                positional.append(argument)
            }
        }
        guard positional.count == 1, let sessionText = options["session"], let sessionId = UUID(uuidString: sessionText)
        else {
            throw SleepCycleSdkError.invalidConfiguration(
                "usage: sleepanalysis \(name) DB --session UUID [--batch-size N] [--max-seconds S]")
        }
        let batchSize = Int(options["batch-size"] ?? "") ?? 8
        let maxSeconds = Double(options["max-seconds"] ?? "") ?? 30
        let journal = try SessionJournal(databaseURL: URL(fileURLWithPath: positional[0]))
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
        return 0
    }
}

import Foundation
@_spi(Internal) import SleepAnalysis

/// Moves a night's session journal between an analyzer's storage directory and a `NightCheckpoint`.
enum NightJournalSnapshot {
    /// The journal file of an analyzer initialized with `storageDirectory`.
    static func journalURL(storageDirectory: URL) -> URL {
        StorageLocations.resolve(storageDirectory: storageDirectory).stateDirectory
            .appendingPathComponent("journal.sqlite")
    }

    /// A consistent copy of the journal in `storageDirectory` and its journaled epochs, or nil while it has no
    /// active session with at least one epoch. Blocking: call it off the cooperative pool.
    ///
    /// - Parameters:
    ///   - storageDirectory: The analyzer's storage directory.
    ///   - worker: The worker's name, recorded with the checkpoint.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the journal cannot be read or copied.
    static func take(storageDirectory: URL, worker: String) throws -> NightCheckpoint? {
        let url = journalURL(storageDirectory: storageDirectory)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let journal = try SessionJournal(databaseURL: url)
        guard let session = try journal.activeSessions().first else { return nil }
        let epochs = try journal.recordCount(kind: JournalKind.epochFeatures, sessionId: session.sessionId)
        guard epochs > 0 else { return nil }
        let copy = url.deletingLastPathComponent().appendingPathComponent("checkpoint-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: copy) }
        try journal.copy(to: copy)
        do {
            return NightCheckpoint(journal: try Data(contentsOf: copy), epochs: epochs, writtenBy: worker)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot read the journal copy \(copy.path): \(error)")
        }
    }

    /// Writes a checkpoint's journal where an analyzer initialized with `storageDirectory` will open it.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` when it cannot be written.
    static func restore(_ checkpoint: NightCheckpoint, storageDirectory: URL) throws {
        let url = journalURL(storageDirectory: storageDirectory)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try checkpoint.journal.write(to: url, options: .atomic)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot restore the journal to \(url.path): \(error)")
        }
    }
}

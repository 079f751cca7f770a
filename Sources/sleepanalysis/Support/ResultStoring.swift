import Foundation
import SleepAnalysis

/// Saves a command's results in the session store (`--store DIR`) without ever losing them: when the store
/// cannot be opened or written, each result is kept in the state directory (`PendingResults`, under `--storage`)
/// and the next run with the same `--store DIR` saves it there first. Nothing here throws; the caller prints the
/// results either way, then fails with `failure` (exit 73) when there is one.
struct ResultStoring {
    /// Earlier nights from the store, for the sleep score's history (empty when the store cannot be read).
    var history: [SleepScoreHistoryEntry] = []
    /// Why the results are not in the store, and where they were kept instead; nil when they were stored.
    var failure: CommandLineError?

    /// Delivers results kept by earlier runs, reads the last 28 days' history, then saves `results`.
    ///
    /// - Parameters:
    ///   - results: The nights to save.
    ///   - storeDirectory: The `--store` directory.
    ///   - storageDirectory: The `--storage` directory (nil: the XDG state directory), where results are kept.
    ///   - warn: Where warnings go (standard error).
    init(
        _ results: [AnalysisResult], in storeDirectory: URL, storageDirectory: URL?,
        warn: (String) -> Void = ResultStoring.printWarning
    ) {
        let pending = PendingResults(storageDirectory: storageDirectory)
        let store: SessionStore
        do {
            store = try SessionStore(directory: storeDirectory)
        } catch {
            failure = Self.keep(results, for: storeDirectory, in: pending, because: error)
            return
        }
        if let quarantined = store.quarantined { warn("the session store \(quarantined)") }
        do {
            let delivered = try pending.deliver(into: store)
            if !delivered.isEmpty {
                warn("stored \(delivered.count) result(s) kept from earlier runs: \(Self.list(delivered))")
            }
        } catch {
            warn("results kept from earlier runs stay in \(pending.directory.path): \(Self.reason(error))")
        }
        if let first = results.first {
            history = Self.history(before: first.startTime, in: store, warn: warn)
        }
        for (index, result) in results.enumerated() {
            do {
                try store.save(result)
            } catch {
                failure = Self.keep(Array(results[index...]), for: storeDirectory, in: pending, because: error)
                return
            }
        }
    }

    /// The stored nights of the 28 days before `start` as score history, skipping unreadable rows with a warning.
    private static func history(
        before start: Date, in store: SessionStore, warn: (String) -> Void
    ) -> [SleepScoreHistoryEntry] {
        do {
            let (results, unreadable) = try store.readableResults(
                in: DateInterval(start: start.addingTimeInterval(-28 * 86_400), end: start))
            for night in unreadable { warn("skipped an unreadable night in the store: \(night)") }
            return results.map { $0.toSleepScoreHistoryEntry() }
        } catch {
            warn("the score has no history: \(reason(error))")
            return []
        }
    }

    /// Keeps `results` for later and describes what happened.
    private static func keep(
        _ results: [AnalysisResult], for storeDirectory: URL, in pending: PendingResults, because error: any Error
    ) -> CommandLineError {
        var message = "the result above was not stored in \(storeDirectory.path) (\(reason(error))). "
        do {
            let files = try results.map { try pending.keep($0, for: storeDirectory) }
            message +=
                "It is kept in \(files.map(\.path).joined(separator: ", ")); the next "
                + "'sleepanalysis analyze … --store \(storeDirectory.path)' stores it there."
        } catch {
            message += "It could not be kept either (\(reason(error))): the output above is the only copy."
        }
        return CommandLineError(kind: .cannotStore, message: message)
    }

    /// An error's message without the SDK's "Storage failure:" prefix.
    private static func reason(_ error: any Error) -> String {
        if case SleepCycleSdkError.storageFailure(let why) = error { return why.message }
        return "\(error)"
    }

    /// Session ids for a message.
    private static func list(_ ids: [UUID]) -> String {
        ids.map(\.uuidString).joined(separator: ", ")
    }

    /// Writes a warning line to standard error.
    static func printWarning(_ text: String) {
        CommandRunner.printError("sleepanalysis: warning: \(text)\n")
    }
}

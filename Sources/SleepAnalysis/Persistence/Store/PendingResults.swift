import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Results that could not be saved in their session store (read-only place, full disk, damaged file), kept in the
/// SDK's state directory until a later `deliver(into:)` saves them, so that a night once analysed is not lost.
///
/// Each result is one file, `<state>/pending-results/<session id>.json` (mode 0600, written to a temporary file
/// and renamed, so a file is whole or absent), holding the result and the store directory it was meant for.
/// Delivery saves a result (an upsert by session id, so delivering twice is harmless) and only then removes its
/// file.
package final class PendingResults: Sendable {
    /// The folder's name inside the state directory.
    package static let directoryName = "pending-results"

    /// Where the kept results are.
    package let directory: URL

    /// What one file holds.
    private struct Entry: Codable {
        /// The store directory the result is for (`standardizedFileURL.path`).
        var store: String
        /// The night.
        var result: AnalysisResult
    }

    /// Uses `directory` for kept results (created when the first one is kept).
    ///
    /// - Parameter directory: The folder.
    package init(directory: URL) {
        self.directory = directory
    }

    /// Uses `<state>/pending-results` of the state directory `initialize(…, storageDirectory:)` uses: under
    /// `storageDirectory` when given, else the XDG state directory.
    ///
    /// - Parameters:
    ///   - storageDirectory: The SDK's storage directory override, or nil.
    ///   - environment: The process environment (injectable for tests).
    package convenience init(
        storageDirectory: URL?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        let locations = StorageLocations.resolve(storageDirectory: storageDirectory, environment: environment)
        self.init(directory: locations.stateDirectory.appendingPathComponent(Self.directoryName, isDirectory: true))
    }

    /// Keeps a result meant for the store in `storeDirectory`, replacing an earlier copy of the same session.
    ///
    /// - Parameters:
    ///   - result: The night.
    ///   - storeDirectory: The session store's directory it should go to.
    /// - Returns: The file that holds it.
    /// - Throws: `SleepCycleSdkError.storageFailure` naming the file and the reason when it cannot be written.
    @discardableResult
    package func keep(_ result: AnalysisResult, for storeDirectory: URL) throws -> URL {
        let data = try PersistenceCoding.encode(
            Entry(store: Self.key(storeDirectory), result: result), what: "the result to keep")
        try StorageLocations.prepare(directory)
        chmod(directory.path, 0o700)
        let file = directory.appendingPathComponent("\(result.sessionId.uuidString).json")
        let temporary = directory.appendingPathComponent(".\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SleepCycleSdkError.storageFailure(
                "cannot keep the result in \(temporary.path): \(String(cString: strerror(errno)))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary.path)
            throw SleepCycleSdkError.storageFailure(
                "cannot keep the result in \(file.path): \(error.localizedDescription)")
        }
        guard rename(temporary.path, file.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw SleepCycleSdkError.storageFailure("cannot keep the result in \(file.path): \(reason)")
        }
        return file
    }

    /// The kept results meant for the store in `storeDirectory`, oldest night first. Files that cannot be read
    /// are left alone.
    ///
    /// - Parameter storeDirectory: The session store's directory.
    /// - Returns: Each result and the file that holds it.
    package func results(for storeDirectory: URL) -> [(file: URL, result: AnalysisResult)] {
        let key = Self.key(storeDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let kept = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.compactMap {
            name -> (file: URL, result: AnalysisResult)? in
            let file = directory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: file),
                let entry = try? PersistenceCoding.decode(Entry.self, from: data, what: "a kept result"),
                entry.store == key
            else { return nil }
            return (file, entry.result)
        }
        return kept.sorted { $0.result.startTime < $1.result.startTime }
    }

    /// Saves every result kept for `store`'s directory into it, removing each file once its result is saved.
    ///
    /// - Parameter store: The session store, opened for writing (a PostgreSQL store has no kept results).
    /// - Returns: The sessions delivered.
    /// - Throws: `SleepCycleSdkError.storageFailure` when a save fails (that result and the ones after it stay
    ///   kept).
    @discardableResult
    package func deliver(into store: SessionStore) throws -> [UUID] {
        var delivered: [UUID] = []
        guard let directory = store.directory else { return delivered }
        for (file, result) in results(for: directory) {
            try store.save(result)
            try? FileManager.default.removeItem(at: file)
            delivered.append(result.sessionId)
        }
        return delivered
    }

    /// How a store directory is recorded and compared.
    private static func key(_ storeDirectory: URL) -> String {
        storeDirectory.standardizedFileURL.path
    }
}

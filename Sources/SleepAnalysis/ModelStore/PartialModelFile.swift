import Foundation
import Synchronization

/// A model file being downloaded: `<models>/<file>.<sha256 prefix>.partial`, appended to as bytes arrive and
/// kept when a download fails, so the next attempt resumes from its size. The hash in the name keeps a partial
/// file of one model version from being resumed as another.
final class PartialModelFile: Sendable {
    /// The partial file.
    let url: URL
    /// The open file between `begin` and `close`; the mutex also keeps one write at a time.
    private let handle = Mutex<FileHandle?>(nil)
    private let progress: DownloadProgress

    /// Creates (without opening) the partial file for a manifest entry.
    ///
    /// - Parameters:
    ///   - entry: The model being downloaded.
    ///   - directory: The models directory.
    ///   - progress: Where received bytes are counted.
    init(entry: ModelManifestEntry, directory: URL, progress: DownloadProgress) {
        url = directory.appendingPathComponent("\(entry.file).\(entry.sha256.lowercased().prefix(12)).partial")
        self.progress = progress
    }

    /// The partial file's current size (0 if absent).
    var size: Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Starts receiving a body whose first byte is byte `offset` of the model: keeps the first `offset` bytes of
    /// the partial file, drops the rest, and appends from there.
    ///
    /// - Parameter offset: The resume point (0 when the server sends the whole file).
    /// - Throws: `SleepCycleSdkError.storageFailure` if the file cannot be opened.
    func begin(at offset: Int64) throws {
        do {
            try self.handle.withLock { opened in
                let existing = size
                if !FileManager.default.fileExists(atPath: url.path),
                    !FileManager.default.createFile(atPath: url.path, contents: nil)
                {
                    throw CocoaError(.fileWriteUnknown)
                }
                let handle = try FileHandle(forWritingTo: url)
                let keep = min(offset, existing)
                try handle.truncate(atOffset: UInt64(keep))
                try handle.seekToEnd()
                if keep < existing { progress.remove(existing - keep) }
                opened = handle
            }
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    /// Appends received bytes.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` if writing fails.
    func append(_ data: Data) throws {
        try handle.withLock { handle in
            guard let handle else { throw SleepCycleSdkError.storageFailure("\(url.path) was written before begin") }
            do {
                try handle.write(contentsOf: data)
            } catch {
                throw SleepCycleSdkError.storageFailure("cannot write \(url.path): \(error.localizedDescription)")
            }
            progress.add(data.count)
        }
    }

    /// Flushes and closes the file (safe to call twice).
    func close() {
        handle.withLock { handle in
            try? handle?.synchronize()
            try? handle?.close()
            handle = nil
        }
    }

    /// Deletes the partial file.
    func remove() {
        close()
        try? FileManager.default.removeItem(at: url)
    }
}

import Foundation
import SleepAnalysis

#if canImport(Glibc)
    import Glibc
#endif

/// The folders of one run (`job-<id>-<lease>` under the worker's storage root and under its download cache), owned
/// through an exclusive `flock` on `<storage root>/job-<id>-<lease>.lock` that the process holds while the run
/// lasts. The kernel drops the lock when the process dies, however it dies, so a worker starting on the same
/// storage root (`removeAbandoned`) knows which folders a killed predecessor left: those whose lock it can take.
/// Workers sharing a root never remove each other's live folders.
final class NightRunFolders: @unchecked Sendable {
    /// The lock file's descriptor (only closed in `remove`).
    private let descriptor: Int32
    private let lockURL: URL
    /// The run's folders.
    let folders: [URL]

    private init(descriptor: Int32, lockURL: URL, folders: [URL]) {
        self.descriptor = descriptor
        self.lockURL = lockURL
        self.folders = folders
    }

    /// Takes the lock of run `name` (creating the storage root), before any of its folders is created.
    ///
    /// - Parameters:
    ///   - name: The run's name (`job-<id>-<lease>`).
    ///   - storageRoot: The worker's storage root.
    ///   - downloadDirectory: The worker's download cache.
    /// - Throws: `SleepCycleSdkError.storageFailure` when the lock file cannot be made.
    static func claim(_ name: String, storageRoot: URL, downloadDirectory: URL) throws -> NightRunFolders {
        do {
            try FileManager.default.createDirectory(at: storageRoot, withIntermediateDirectories: true)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot create \(storageRoot.path): \(error.localizedDescription)")
        }
        let lockURL = storageRoot.appendingPathComponent(name + ".lock")
        let folders = [
            storageRoot.appendingPathComponent(name, isDirectory: true),
            downloadDirectory.appendingPathComponent(name, isDirectory: true),
        ]
        while true {
            let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw SleepCycleSdkError.storageFailure(
                    "cannot create \(lockURL.path): \(String(cString: strerror(errno)))")
            }
            if flock(descriptor, LOCK_EX) == 0, isCurrent(descriptor, lockURL) {
                return NightRunFolders(descriptor: descriptor, lockURL: lockURL, folders: folders)
            }
            close(descriptor)  // removed by a cleaner between open and lock: take the new file
        }
    }

    /// Removes the run's folders, then its lock file, and releases the lock.
    func remove() {
        for folder in folders { try? FileManager.default.removeItem(at: folder) }
        unlink(lockURL.path)
        close(descriptor)
    }

    /// Removes the folders of runs whose process is gone: every `job-*` folder under `storageRoot` and
    /// `downloadDirectory` whose lock no live process holds.
    ///
    /// - Parameters:
    ///   - storageRoot: The worker's storage root.
    ///   - downloadDirectory: The worker's download cache.
    /// - Returns: The names of the runs removed.
    static func removeAbandoned(storageRoot: URL, downloadDirectory: URL) -> [String] {
        let manager = FileManager.default
        var names = Set<String>()
        for directory in [storageRoot, downloadDirectory] {
            for entry in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] where entry.hasPrefix("job-")
            {
                names.insert(entry.hasSuffix(".lock") ? String(entry.dropLast(5)) : entry)
            }
        }
        var removed: [String] = []
        for name in names.sorted() {
            let lockURL = storageRoot.appendingPathComponent(name + ".lock")
            let descriptor = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isCurrent(descriptor, lockURL) else { continue }
            for directory in [storageRoot, downloadDirectory] {
                try? manager.removeItem(at: directory.appendingPathComponent(name, isDirectory: true))
            }
            unlink(lockURL.path)
            removed.append(name)
        }
        return removed
    }

    /// True when `descriptor` is still the file at `url` (not one unlinked by a cleaner after it was opened).
    private static func isCurrent(_ descriptor: Int32, _ url: URL) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, stat(url.path, &named) == 0 else { return false }
        return open.st_ino == named.st_ino && open.st_dev == named.st_dev
    }
}

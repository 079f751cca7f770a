import Foundation

/// An exclusive hold on a state directory, so that two analyzers (in one process or in two) never share a
/// session journal: the second gets a clear error instead of resuming or overwriting the first one's sessions.
///
/// The hold is a `FileLock` on `<directory>/analyzer.lock`, taken at once or refused; the kernel releases it when
/// the holder's process ends, however it ends, so a killed process never leaves the directory locked. The owner
/// releases it with `release()` when it is done (deinitialize), whoever else still holds a reference to this
/// object.
final class StorageDirectoryLock: Sendable {
    /// The held file lock.
    private let lock: FileLock

    /// The lock file.
    var url: URL { lock.url }

    /// Takes the hold on `directory`.
    ///
    /// - Throws: `.storageFailure` when another analyzer holds it, or the lock file cannot be opened.
    init(directory: URL) throws {
        let url = directory.appendingPathComponent("analyzer.lock")
        do {
            lock = try FileLock.acquireNow(url, permissions: 0o600)
        } catch FileLockError.held {
            throw SleepCycleSdkError.storageFailure(
                "the storage directory \(directory.path) is in use by another SleepAnalyzer (in this process or "
                    + "another); give each analyzer its own storageDirectory")
        } catch FileLockError.cannotOpen(let reason) {
            throw SleepCycleSdkError.storageFailure("cannot open \(url.path): \(reason)")
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot lock \(url.path): \(error)")
        }
    }

    /// Gives the directory up: another analyzer may take it at once. Further calls do nothing.
    func release() {
        lock.release()
    }
}

import Foundation

/// An exclusive `FileLock` on `<models>/.lock`, so two processes sharing a data directory never write the same
/// partial download at once: the second waits for the first. Released by `release()`, on deinit or when the
/// process ends.
final class ModelDirectoryLock: Sendable {
    private let lock: FileLock

    private init(lock: FileLock) { self.lock = lock }

    /// Waits (without blocking a thread) until the lock is free, then takes it.
    ///
    /// - Parameters:
    ///   - directory: The models directory (it must exist).
    ///   - timeout: Seconds to wait before giving up.
    /// - Returns: The held lock.
    /// - Throws: `SleepCycleSdkError.storageFailure` if the lock file cannot be opened or the wait times out;
    ///   `CancellationError` when the task is cancelled while it waits.
    static func acquire(in directory: URL, timeout: TimeInterval = 600) async throws -> ModelDirectoryLock {
        let url = directory.appendingPathComponent(".lock")
        let path = url.path
        do {
            return ModelDirectoryLock(lock: try await FileLock.acquire(url, permissions: 0o644, timeout: timeout))
        } catch FileLockError.timedOut {
            throw SleepCycleSdkError.storageFailure(
                "another process has held the model download lock \(path) for over \(Int(timeout)) s")
        } catch FileLockError.cannotOpen(let reason) {
            throw SleepCycleSdkError.storageFailure("cannot open \(path): \(reason)")
        } catch let error as FileLockError {
            throw SleepCycleSdkError.storageFailure("cannot lock \(path): \(error)")
        }
    }

    /// Releases the lock (safe to call twice).
    func release() {
        lock.release()
    }
}

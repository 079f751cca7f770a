import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive advisory lock (`flock`) on `<models>/.lock`, so two processes sharing a data directory never
/// write the same partial download at once. Released by `release()` or when the process ends.
final class ModelDirectoryLock: @unchecked Sendable {
    private var descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Waits (without blocking a thread) until the lock is free, then takes it.
    ///
    /// - Parameters:
    ///   - directory: The models directory (it must exist).
    ///   - timeout: Seconds to wait before giving up.
    /// - Returns: The held lock.
    /// - Throws: `SleepCycleSdkError.storageFailure` if the lock file cannot be opened or the wait times out.
    static func acquire(in directory: URL, timeout: TimeInterval = 600) async throws -> ModelDirectoryLock {
        let path = directory.appendingPathComponent(".lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SleepCycleSdkError.storageFailure("cannot open \(path): \(String(describing: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(descriptor)
                throw SleepCycleSdkError.storageFailure(
                    "another process has held the model download lock \(path) for over \(Int(timeout)) s")
            }
            do {
                try await Task.sleep(nanoseconds: 50_000_000)
            } catch {
                close(descriptor)
                throw error
            }
        }
        return ModelDirectoryLock(descriptor: descriptor)
    }

    /// Releases the lock (safe to call twice).
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive advisory lock (`flock(2)`) on one file, the package's only wrapper of `flock`.
///
/// The lock belongs to the open file, not to the process: two holders in one process exclude each other as two
/// processes do. The kernel releases it when the holder's process ends, however it ends, so a killed process never
/// leaves it held. `release()` gives it up at once, whoever else still holds a reference to this object; deinit
/// releases it too.
final class FileLock: Sendable {
    /// The locked file.
    let url: URL
    /// The open lock file, or nil once released.
    private let descriptor: Mutex<Int32?>

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = Mutex(descriptor)
    }

    /// Takes the lock on `url` (created if missing) now, or fails.
    ///
    /// - Parameters:
    ///   - url: The lock file; its folder must exist.
    ///   - permissions: The mode of the file when it is created.
    /// - Returns: The held lock.
    /// - Throws: `FileLockError.held` when another holder has it, `.cannotOpen` or `.cannotLock` otherwise.
    static func acquireNow(_ url: URL, permissions: mode_t = 0o600) throws(FileLockError) -> FileLock {
        let descriptor = try open(url, permissions: permissions)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            throw reason == EWOULDBLOCK ? .held : .cannotLock(reason: String(cString: strerror(reason)))
        }
        return FileLock(url: url, descriptor: descriptor)
    }

    /// Waits until the lock on `url` (created if missing) is free, then takes it. It polls every 50 ms, suspending
    /// the task between tries, so no thread is blocked.
    ///
    /// - Parameters:
    ///   - url: The lock file; its folder must exist.
    ///   - permissions: The mode of the file when it is created.
    ///   - timeout: Seconds to wait before giving up.
    /// - Returns: The held lock.
    /// - Throws: `FileLockError.timedOut` after `timeout`, `.cannotOpen` or `.cannotLock`; `CancellationError`
    ///   when the task is cancelled while it waits.
    static func acquire(
        _ url: URL, permissions: mode_t = 0o600, timeout: TimeInterval
    ) async throws -> FileLock {
        let descriptor = try open(url, permissions: permissions)
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            guard reason == EWOULDBLOCK || reason == EINTR else {
                close(descriptor)
                throw FileLockError.cannotLock(reason: String(cString: strerror(reason)))
            }
            guard Date() < deadline else {
                close(descriptor)
                throw FileLockError.timedOut
            }
            do {
                try await Task.sleep(nanoseconds: 50_000_000)
            } catch {
                close(descriptor)
                throw error
            }
        }
        return FileLock(url: url, descriptor: descriptor)
    }

    /// Whether the lock is still held by this object (false once released).
    var isHeld: Bool {
        descriptor.withLock { $0 != nil }
    }

    /// Gives the lock up: another holder may take it at once. Further calls do nothing.
    func release() {
        descriptor.withLock { held in
            guard let open = held else { return }
            flock(open, LOCK_UN)
            close(open)
            held = nil
        }
    }

    deinit {
        release()
    }

    private static func open(_ url: URL, permissions: mode_t) throws(FileLockError) -> Int32 {
        let descriptor = Glibc.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw .cannotOpen(reason: String(cString: strerror(errno))) }
        return descriptor
    }
}

/// Why a `FileLock` was not taken.
enum FileLockError: Error, Equatable {
    /// The lock file could not be opened or created (the reason is `strerror`'s).
    case cannotOpen(reason: String)
    /// Another holder, in this process or another, has the lock.
    case held
    /// `flock` failed for another reason than the lock being held (the reason is `strerror`'s).
    case cannotLock(reason: String)
    /// The lock stayed held for longer than the caller would wait.
    case timedOut
}

import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive hold on a state directory, so that two analyzers (in one process or in two) never share a
/// session journal: the second gets a clear error instead of resuming or overwriting the first one's sessions.
///
/// The hold is an advisory `flock` on `<directory>/analyzer.lock`; the kernel releases it when the holder's
/// process ends, however it ends, so a killed process never leaves the directory locked. The owner releases it
/// with `release()` when it is done (deinitialize), whoever else still holds a reference to this object.
final class StorageDirectoryLock: Sendable {
    /// The lock file.
    let url: URL
    /// The open lock file, or nil once released.
    private let descriptor: Mutex<Int32?>

    /// Takes the hold on `directory`.
    ///
    /// - Throws: `.storageFailure` when another analyzer holds it, or the lock file cannot be opened.
    init(directory: URL) throws {
        url = directory.appendingPathComponent("analyzer.lock")
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SleepCycleSdkError.storageFailure(
                "cannot open \(url.path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(descriptor)
            if reason == EWOULDBLOCK {
                throw SleepCycleSdkError.storageFailure(
                    "the storage directory \(directory.path) is in use by another SleepAnalyzer (in this process or "
                        + "another); give each analyzer its own storageDirectory")
            }
            throw SleepCycleSdkError.storageFailure("cannot lock \(url.path): \(String(cString: strerror(reason)))")
        }
        self.descriptor = Mutex(descriptor)
    }

    /// Gives the directory up: another analyzer may take it at once. Further calls do nothing.
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
}

import Foundation

/// A damaged SQLite file (the session journal or a session store) that was renamed aside so that a fresh file
/// can take its place: nothing is deleted, and the damaged copy stays for inspection or recovery.
///
/// The file (and its `-wal` and `-shm` files, when present) become `<name>.corrupt-<UTC time>` in the same
/// directory, e.g. `journal.sqlite.corrupt-20261201T061500Z`; a second quarantine in the same second adds `-2`.
public struct QuarantinedFile: Sendable, Hashable, CustomStringConvertible {
    /// Where the file was.
    public let originalURL: URL
    /// Where it is now.
    public let movedURL: URL
    /// Why it was moved: what SQLite reported.
    public let reason: String

    /// Creates a record of a quarantine.
    ///
    /// - Parameters:
    ///   - originalURL: Where the file was.
    ///   - movedURL: Where it is now.
    ///   - reason: Why it was moved.
    public init(originalURL: URL, movedURL: URL, reason: String) {
        self.originalURL = originalURL
        self.movedURL = movedURL
        self.reason = reason
    }

    /// One sentence for a log or a terminal: what was damaged, why, and where it went.
    public var description: String {
        "\(originalURL.path) was damaged (\(reason)); it was moved to \(movedURL.path) and a new file was started"
    }

    /// Renames a damaged database and its `-wal` and `-shm` files aside.
    ///
    /// - Parameters:
    ///   - url: The database file.
    ///   - reason: Why it is moved (kept in the record).
    ///   - now: The time in the new name.
    /// - Returns: The record of the move.
    /// - Throws: `SleepCycleSdkError.storageFailure` naming the file when it cannot be renamed.
    static func moveAside(_ url: URL, reason: String, now: Date = Date()) throws -> QuarantinedFile {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = url.path + ".corrupt-" + formatter.string(from: now)
        var target = base
        var attempt = 1
        let manager = FileManager.default
        while ["", "-wal", "-shm"].contains(where: { manager.fileExists(atPath: target + $0) }) {
            attempt += 1
            target = "\(base)-\(attempt)"
        }
        for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: url.path + suffix) {
            guard rename(url.path + suffix, target + suffix) == 0 else {
                let why = String(cString: strerror(errno))
                throw SleepCycleSdkError.storageFailure(
                    "\(url.path) is damaged (\(reason)) and cannot be moved aside to \(target + suffix): \(why)")
            }
        }
        return QuarantinedFile(originalURL: url, movedURL: URL(fileURLWithPath: target), reason: reason)
    }
}

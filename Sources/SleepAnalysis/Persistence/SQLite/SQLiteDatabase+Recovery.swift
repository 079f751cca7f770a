import CSQLite
import Foundation

extension SQLiteDatabase {
    /// Opens a database for writing after checking it (`PRAGMA quick_check`, then `prepare`); when the file is
    /// damaged (corrupt, not a database, or `prepare` reports damage), it is renamed aside
    /// (`QuarantinedFile.moveAside`) and a new, empty file takes its place, so damage never blocks the caller.
    ///
    /// - Parameters:
    ///   - url: The database file.
    ///   - prepare: Migrates and validates the open database; throw `damage(_:in:)` for content that is
    ///     unreadable although SQLite finds the file sound.
    /// - Returns: The open database, and the quarantine record when the old file was moved aside.
    /// - Throws: `SleepCycleSdkError.storageFailure` for failures that are not damage (an unwritable directory,
    ///   a file from a newer library), or when the damaged file cannot be moved.
    static func openRecovering(
        _ url: URL, prepare: (SQLiteDatabase) throws -> Void
    ) throws -> (database: SQLiteDatabase, quarantined: QuarantinedFile?) {
        do {
            let database = try SQLiteDatabase(url: url)
            try database.checkIntegrity()
            try prepare(database)
            return (database, nil)
        } catch  where isDamage(error) {
            let reason: String
            if case SleepCycleSdkError.storageFailure(let message) = error {
                reason = message.message
            } else {
                reason = "\(error)"
            }
            let quarantined = try QuarantinedFile.moveAside(url, reason: reason)
            let database = try SQLiteDatabase(url: url)
            try prepare(database)
            return (database, quarantined)
        }
    }

    /// The error for content SQLite reads but that makes no sense (a record that does not decode): reported,
    /// like SQLite's own corruption, as damage (`isDamage` is true for it).
    ///
    /// - Parameters:
    ///   - problem: What is wrong.
    ///   - url: The file.
    /// - Returns: A `storageFailure` carrying `SQLITE_CORRUPT`.
    static func damage(_ problem: String, in url: URL) -> SleepCycleSdkError {
        storageError(code: SQLITE_CORRUPT, message: problem, context: "checking \(url.path)")
    }
}

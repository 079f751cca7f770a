import Foundation
import SleepAnalysis

/// The session store of a service: each subject's nights in PostgreSQL, beside the night queue whose workers save
/// every finished night there.
///
/// ```swift
/// let store = try SessionStore(address: FleetDatabaseAddress.resolve(nil), subject: "subject-7")
/// let lastWeek = try store.nights(in: DateInterval(start: weekAgo, end: now))
/// for await change in store.changes { print(change.sessionId) }   // saved or deleted by any worker
/// ```
extension SessionStore {
    /// Opens a subject's nights in PostgreSQL, blocking the calling thread while it connects. The tables must
    /// have been created by `NightQueue.migrate(address:reconnect:)` (`sleepanalysis queue migrate`): opening a
    /// store only checks their version, so a read-only role can.
    ///
    /// Queries and writes see and change that subject's nights only; anchors count that subject's changes. The
    /// `changes` stream delivers every change to the subject made through any connection (`LISTEN/NOTIFY`).
    ///
    /// - Parameters:
    ///   - address: Where the database is (`FleetDatabaseAddress.resolve(_:)` reads `$SLEEPANALYSIS_DATABASE_URL`).
    ///   - subject: Whose nights (the `subjectId` of the queue's submissions); not empty.
    ///   - reconnect: How to retry connecting.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an empty subject; `storageFailure` when the database
    ///   cannot be reached or its tables are not at this library's version (the message names the address without its password).
    public convenience init(
        address: FleetDatabaseAddress, subject: String,
        reconnect: FleetDatabaseReconnectPolicy = FleetDatabaseReconnectPolicy()
    ) throws {
        guard !subject.isEmpty else {
            throw SleepCycleSdkError.invalidConfiguration("a PostgreSQL session store needs a subject id")
        }
        let backend = try PostgresSessionStoreBackend(address: address, subject: subject, reconnect: reconnect)
        self.init(backend: backend, directory: nil, isReadOnly: false, quarantined: nil)
    }
}

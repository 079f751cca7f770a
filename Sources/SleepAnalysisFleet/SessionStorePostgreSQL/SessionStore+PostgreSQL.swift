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
    /// Opens a subject's nights in PostgreSQL (creating or upgrading the tables, safely while other processes do
    /// the same), blocking the calling thread while it connects.
    ///
    /// Queries and writes see and change that subject's nights only; anchors count that subject's changes. The
    /// `changes` stream delivers every change to the subject made through any connection (`LISTEN/NOTIFY`).
    ///
    /// - Parameters:
    ///   - address: Where the database is (`FleetDatabaseAddress.resolve(_:)` reads `$SLEEPANALYSIS_DATABASE_URL`).
    ///   - subject: Whose nights (the `subjectId` of the queue's submissions); not empty.
    ///   - reconnect: How to retry connecting.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for an empty subject; `storageFailure` when the database
    ///   cannot be reached or migrated (the message names the address without its password).
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

import Foundation
import SleepAnalysis

/// A worker's health, as its `/health` endpoint reports it (`NightWorker.health()`).
public struct NightWorkerHealth: Sendable, Hashable {
    /// True while the worker claims and analyses nights (also while it waits for the database).
    public var isHealthy: Bool
    /// The worker's name.
    public var worker: String
    /// `waiting` (for the database, at start-up), `working`, `stopping` or `faulted`.
    public var state: String
    /// Nights being analysed now.
    public var runningJobs: Int
    /// False when the database's last answer was a failure.
    public var databaseReachable: Bool
    /// When the database last answered.
    public var lastDatabaseContact: Date?
    /// The last failure talking to it, while it lasts (passwords redacted).
    public var databaseError: String?

    /// The health of a worker process still waiting for the database at start-up (healthy: it is doing what it
    /// should), for an endpoint served before the `NightWorker` exists.
    ///
    /// - Parameters:
    ///   - worker: The worker's name.
    ///   - error: Why the database cannot be used yet (passwords redacted), if known.
    /// - Returns: The health.
    public static func waitingForDatabase(worker: String, error: String?) -> NightWorkerHealth {
        NightWorkerHealth(
            isHealthy: true, worker: worker, state: "waiting", runningJobs: 0, databaseReachable: false,
            lastDatabaseContact: nil, databaseError: error)
    }

    /// The health as a JSON document (`Schemas/worker-health.schema.json`, with `schemaVersion`).
    ///
    /// - Returns: UTF-8 JSON.
    /// - Throws: `EncodingError` (never for these members).
    public func jsonDocument() throws -> Data {
        struct Document: Encodable {
            var schemaVersion = SleepAnalysisJSON.schemaVersion
            var status: String
            var worker: String
            var state: String
            var runningJobs: Int
            var database: Database
            struct Database: Encodable {
                var reachable: Bool
                var lastContact: String?
                var error: String?
            }
        }
        return try SleepAnalysisJSON.encode(
            Document(
                status: isHealthy ? "ok" : "unavailable", worker: worker, state: state, runningJobs: runningJobs,
                database: Document.Database(
                    reachable: databaseReachable, lastContact: lastDatabaseContact.map(SleepAnalysisJSON.timestamp),
                    error: databaseError)))
    }
}

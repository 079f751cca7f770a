import Foundation
import SleepAnalysis

/// Listens for `NOTIFY` on channels, on a connection of its own (re-listening after a reconnection).
final class PostgresListener: Sendable {
    private let database: PostgresDatabase

    /// A listener on `channels`; it connects at the first `wait`.
    ///
    /// - Parameters:
    ///   - address: Where the database is.
    ///   - channels: The channels to listen on.
    ///   - policy: How to retry connecting.
    init(
        address: FleetDatabaseAddress, channels: [String],
        policy: FleetDatabaseReconnectPolicy = FleetDatabaseReconnectPolicy()
    ) {
        database = PostgresDatabase(address: address, policy: policy) { connection in
            for channel in channels {
                try connection.execute("LISTEN \(try connection.quotedIdentifier(channel))")
            }
        }
    }

    /// The notifications that arrived, waiting up to `timeout` seconds when none has.
    ///
    /// - Parameter timeout: How long to wait.
    /// - Returns: The notifications (empty after the timeout).
    /// - Throws: `FleetDatabaseError` (`connection`) when the database cannot be reached.
    func wait(upTo timeout: TimeInterval) async throws -> [PostgresNotification] {
        try await database.run { try $0.notifications(waitingUpTo: timeout) }
    }

    /// Closes the listener's connection.
    func close() async {
        await database.close()
    }
}

/// Sends notifications.
extension PostgresConnection {
    /// Sends `payload` on `channel` (delivered when the surrounding transaction commits).
    ///
    /// - Throws: `FleetDatabaseError`.
    func notify(_ channel: String, payload: String) throws {
        try execute("SELECT pg_notify($1, $2)", [channel, payload])
    }
}

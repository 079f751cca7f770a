import Foundation
import SleepAnalysis
import Synchronization

/// A PostgreSQL database shared between tasks: one connection, used on a serial queue of its own so that
/// libpq's blocking calls never hold up the cooperative thread pool or an actor.
///
/// A broken connection is dropped when a call finds it so; the next call connects again, retrying with back-off
/// (`FleetDatabaseReconnectPolicy`). A call that fails because the connection broke is not repeated (it may have
/// taken effect): its `FleetDatabaseError` is `isTransient`, and the caller decides.
///
/// Thread safety: `@unchecked Sendable` because `connection` is mutable; it is only touched on `queue`.
final class PostgresDatabase: @unchecked Sendable {
    /// Where the database is.
    let address: FleetDatabaseAddress
    private let policy: FleetDatabaseReconnectPolicy
    private let onConnect: @Sendable (PostgresConnection) throws -> Void
    private let queue: DispatchQueue
    private var connection: PostgresConnection?
    private let connections = Atomic<Int>(0)

    /// Connections made after the first: how often a broken or closed connection was replaced.
    var reconnections: Int { max(0, connections.load(ordering: .relaxed) - 1) }

    /// A database at `address`; nothing connects until the first call.
    ///
    /// - Parameters:
    ///   - address: Where the database is.
    ///   - policy: How to retry connecting.
    ///   - onConnect: Run on every new connection before it is used (e.g. `LISTEN`).
    init(
        address: FleetDatabaseAddress, policy: FleetDatabaseReconnectPolicy = FleetDatabaseReconnectPolicy(),
        onConnect: @escaping @Sendable (PostgresConnection) throws -> Void = { _ in }
    ) {
        self.address = address
        self.policy = policy
        self.onConnect = onConnect
        queue = DispatchQueue(label: "SleepAnalysis.PostgresDatabase")
    }

    /// Runs `body` with the connection, on the database's queue.
    ///
    /// - Parameter body: The work; it must not keep the connection.
    /// - Returns: What `body` returns.
    /// - Throws: `FleetDatabaseError` (`connection`) when no connection could be made within the policy, or what
    ///   `body` throws.
    @discardableResult
    func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.runNow(body) })
            }
        }
    }

    /// Runs `body` with the connection on the database's queue, blocking the calling thread until it is done (for
    /// synchronous APIs such as `SessionStore`'s; never call it from `body` of another call on the same database).
    ///
    /// - Parameter body: The work; it must not keep the connection.
    /// - Returns: What `body` returns.
    /// - Throws: As `run(_:)`.
    func runBlocking<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try queue.sync { try runNow(body) }
    }

    /// Runs `body` in one transaction; see `run(_:)` and `PostgresConnection.transaction(_:)`.
    ///
    /// - Parameter body: The work; it must not keep the connection nor end the transaction.
    /// - Returns: What `body` returns.
    /// - Throws: `FleetDatabaseError`, or what `body` throws (the transaction is then rolled back).
    @discardableResult
    func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await run { connection in try connection.transaction(body) }
    }

    /// Closes the connection (a later call connects again).
    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                self.connection = nil
                continuation.resume()
            }
        }
    }

    // MARK: - On the queue

    private func runNow<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let current = try connected()
        do {
            return try body(current)
        } catch {
            if !current.isUsable { connection = nil }
            throw error
        }
    }

    /// The open connection, or a new one, trying `policy.attempts` times with back-off.
    private func connected() throws -> PostgresConnection {
        if let connection, connection.isUsable { return connection }
        connection = nil
        var attempt = 0
        while true {
            attempt += 1
            do {
                let fresh = try PostgresConnection(address: address)
                try onConnect(fresh)
                connections.add(1, ordering: .relaxed)
                connection = fresh
                return fresh
            } catch let error as FleetDatabaseError where error.isTransient && attempt < policy.attempts {
                Thread.sleep(forTimeInterval: policy.delay(after: attempt))
            }
        }
    }
}

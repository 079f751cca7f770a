import Foundation
import SleepAnalysis
import Synchronization

/// Watches a subject's nights for changes made through any connection: a thread of its own `LISTEN`s on
/// `PostgresSessionStoreSchema.channel` and calls back for each notification about the subject, and after each
/// (re)connection (notifications sent while disconnected are lost, so the store catches up then).
///
/// The connection lives on the thread; `stop()` only sets a flag the thread reads.
final class PostgresSessionStoreWatch: SessionStoreWatch, Sendable {
    /// How long the thread waits for a notification before it looks at `isStopped` again.
    static let pollSeconds: TimeInterval = 0.2

    private let isStopped = Mutex(false)

    private init() {}

    /// Starts watching; returns once the first `LISTEN` is in place, or the first attempt failed (the thread then
    /// keeps trying with back-off).
    ///
    /// - Parameters:
    ///   - address: Where the database is.
    ///   - subject: The subject to watch.
    ///   - reconnect: How to space attempts to connect.
    ///   - changed: Called on the watch's thread.
    /// - Returns: The watch.
    static func start(
        address: FleetDatabaseAddress, subject: String, reconnect: FleetDatabaseReconnectPolicy,
        changed: @escaping @Sendable () -> Void
    ) -> PostgresSessionStoreWatch {
        let watch = PostgresSessionStoreWatch()
        let firstAttempt = DispatchSemaphore(value: 0)
        let thread = Thread {
            watch.listen(address: address, subject: subject, reconnect: reconnect, changed: changed) {
                firstAttempt.signal()
            }
        }
        thread.name = "SleepAnalysis.SessionStore.listen"
        thread.start()
        firstAttempt.wait()
        return watch
    }

    func stop() {
        isStopped.withLock { $0 = true }
    }

    private var stopped: Bool { isStopped.withLock { $0 } }

    /// The thread's loop.
    private func listen(
        address: FleetDatabaseAddress, subject: String, reconnect: FleetDatabaseReconnectPolicy,
        changed: @Sendable () -> Void, attempted: () -> Void
    ) {
        var connection: PostgresConnection?
        var failures = 0
        var hasAttempted = false
        while !stopped {
            do {
                if connection?.isUsable != true {
                    connection = nil
                    let fresh = try PostgresConnection(address: address)
                    try fresh.execute("LISTEN \(try fresh.quotedIdentifier(PostgresSessionStoreSchema.channel))")
                    connection = fresh
                    failures = 0
                    if !hasAttempted {
                        hasAttempted = true
                        attempted()
                    } else {
                        changed()
                    }
                }
                let received = try connection?.notifications(waitingUpTo: Self.pollSeconds) ?? []
                if received.contains(where: {
                    $0.channel == PostgresSessionStoreSchema.channel && $0.payload == subject
                }) {
                    changed()
                }
            } catch {
                connection = nil
                if !hasAttempted {
                    hasAttempted = true
                    attempted()
                }
                failures += 1
                Thread.sleep(forTimeInterval: min(reconnect.delay(after: failures), 5))
            }
        }
    }
}

import Foundation
import Synchronization

/// Publishes a store's changes on its `changes` streams, in anchor order, each once.
///
/// Without a watch (SQLite) it publishes the changes made through its store. With one (PostgreSQL `LISTEN`) it also
/// publishes the changes made through other connections: the first stream starts the watch and notes the current
/// anchor; from then on, anchors being consecutive per store, a change one past the last published goes out as it is,
/// and any gap (another connection wrote meanwhile) is filled first by an anchored query, as is every notification.
///
/// The watch and the last published anchor live in one mutex, which also serialises each write with its
/// publication.
final class SessionStorePublisher: Sendable {
    /// What the mutex guards.
    private struct State {
        var watch: (any SessionStoreWatch)?
        var isWatching = false
        /// The anchor of the last change published, once watching (nil before, or when it could not be read yet).
        var lastPublished: SessionStoreAnchor?
        var isStopped = false
    }

    private let backend: any SessionStoreBackend
    private let subscribers = SessionStoreSubscribers()
    private let state = Mutex(State())

    /// A publisher for `backend`'s changes.
    init(backend: any SessionStoreBackend) {
        self.backend = backend
    }

    /// A new stream of every change published from now on; the first one starts watching other connections.
    func makeStream() -> AsyncStream<SessionStoreChange> {
        let stream = subscribers.makeStream()
        state.withLock { state in
            guard !state.isWatching, !state.isStopped else { return }
            state.isWatching = true
            state.watch = backend.watchChanges { [weak self] in self?.catchUp() }
            if state.watch != nil { state.lastPublished = try? backend.currentAnchor() }
        }
        return stream
    }

    /// Runs a write and publishes the change it made, if any, before another write can start.
    ///
    /// - Parameter write: The write; it returns its change, or nil when it changed nothing.
    /// - Returns: The change.
    /// - Throws: What `write` throws.
    func publishing<Change: SessionStoreChangeConvertible>(_ write: () throws -> Change) throws -> Change {
        try state.withLock { state in
            let outcome = try write()
            if let change = outcome.change { publish(change, in: &state) }
            return outcome
        }
    }

    /// Publishes what changed since the last published anchor (a notification came).
    func catchUp() {
        state.withLock { state in
            guard state.watch != nil, !state.isStopped else { return }
            catchUp(in: &state)
        }
    }

    /// How many streams are subscribed.
    var subscriberCount: Int { subscribers.count }

    /// Stops watching and ends every stream (the store is going away).
    func stop() {
        let watch = state.withLock { state in
            state.isStopped = true
            defer { state.watch = nil }
            return state.watch
        }
        watch?.stop()
        subscribers.finishAll()
    }

    // MARK: - Inside the mutex

    private func publish(_ change: SessionStoreChange, in state: inout State) {
        guard state.watch != nil, let last = state.lastPublished else {
            subscribers.publish(change)
            return
        }
        if change.anchor.rawValue == last.rawValue + 1 {
            subscribers.publish(change)
            state.lastPublished = change.anchor
        } else if change.anchor > last {
            catchUp(in: &state)
        }
    }

    private func catchUp(in state: inout State) {
        do {
            guard let last = state.lastPublished else {
                state.lastPublished = try backend.currentAnchor()
                return
            }
            let (rows, current) = try backend.changes(after: last, includingDeletions: true, limit: nil)
            for row in rows { subscribers.publish(try row.change()) }
            state.lastPublished = max(current, rows.last?.anchor ?? current)
        } catch {
            // A failed read leaves `lastPublished` as it was: the next notification or write tries again.
        }
    }
}

/// What a write returns: its change, if it made one.
protocol SessionStoreChangeConvertible {
    /// The change, or nil.
    var change: SessionStoreChange? { get }
}

extension SessionStoreChange: SessionStoreChangeConvertible {
    var change: SessionStoreChange? { self }
}

extension Optional: SessionStoreChangeConvertible where Wrapped == SessionStoreChange {
    var change: SessionStoreChange? { self }
}

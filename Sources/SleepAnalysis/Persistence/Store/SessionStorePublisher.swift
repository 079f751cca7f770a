import Foundation

/// Publishes a store's changes on its `changes` streams, in anchor order, each once.
///
/// Without a watch (SQLite) it publishes the changes made through its store. With one (PostgreSQL `LISTEN`) it also
/// publishes the changes made through other connections: the first stream starts the watch and notes the current
/// anchor; from then on, anchors being consecutive per store, a change one past the last published goes out as it is,
/// and any gap (another connection wrote meanwhile) is filled first by an anchored query, as is every notification.
///
/// `@unchecked Sendable`: `watch` and `lastPublished` are only touched with `lock` held, which also serialises each
/// write with its publication.
final class SessionStorePublisher: @unchecked Sendable {
    private let backend: any SessionStoreBackend
    private let subscribers = SessionStoreSubscribers()
    private let lock = NSLock()
    private var watch: (any SessionStoreWatch)?
    private var isWatching = false
    /// The anchor of the last change published, once watching (nil before, or when it could not be read yet).
    private var lastPublished: SessionStoreAnchor?
    private var isStopped = false

    /// A publisher for `backend`'s changes.
    init(backend: any SessionStoreBackend) {
        self.backend = backend
    }

    /// A new stream of every change published from now on; the first one starts watching other connections.
    func makeStream() -> AsyncStream<SessionStoreChange> {
        let stream = subscribers.makeStream()
        lock.withLock {
            guard !isWatching, !isStopped else { return }
            isWatching = true
            watch = backend.watchChanges { [weak self] in self?.catchUp() }
            if watch != nil { lastPublished = try? backend.currentAnchor() }
        }
        return stream
    }

    /// Runs a write and publishes the change it made, if any, before another write can start.
    ///
    /// - Parameter write: The write; it returns its change, or nil when it changed nothing.
    /// - Returns: The change.
    func publishing<Change: SessionStoreChangeConvertible>(_ write: () throws -> Change) rethrows -> Change {
        try lock.withLock {
            let outcome = try write()
            if let change = outcome.change { publishLocked(change) }
            return outcome
        }
    }

    /// Publishes what changed since the last published anchor (a notification came).
    func catchUp() {
        lock.withLock {
            guard watch != nil, !isStopped else { return }
            catchUpLocked()
        }
    }

    /// How many streams are subscribed.
    var subscriberCount: Int { subscribers.count }

    /// Stops watching and ends every stream (the store is going away).
    func stop() {
        let watch = lock.withLock {
            isStopped = true
            defer { self.watch = nil }
            return self.watch
        }
        watch?.stop()
        subscribers.finishAll()
    }

    // MARK: - With the lock held

    private func publishLocked(_ change: SessionStoreChange) {
        guard watch != nil, let last = lastPublished else {
            subscribers.publish(change)
            return
        }
        if change.anchor.rawValue == last.rawValue + 1 {
            subscribers.publish(change)
            lastPublished = change.anchor
        } else if change.anchor > last {
            catchUpLocked()
        }
    }

    private func catchUpLocked() {
        do {
            guard let last = lastPublished else {
                lastPublished = try backend.currentAnchor()
                return
            }
            let (rows, current) = try backend.changes(after: last, includingDeletions: true, limit: nil)
            for row in rows { subscribers.publish(try row.change()) }
            lastPublished = max(current, rows.last?.anchor ?? current)
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

import Foundation

/// The consumers of `SessionStore.changes`: one stream continuation each, removed when its stream ends.
///
/// `@unchecked Sendable`: the dictionary is only touched with `lock` held; continuations are called
/// outside the lock, because finishing one runs its `onTermination`, which takes the lock again.
final class SessionStoreSubscribers: @unchecked Sendable {
    private let lock = NSLock()
    private var continuations: [UUID: AsyncStream<SessionStoreChange>.Continuation] = [:]

    /// A new stream that receives every change published from now on.
    func makeStream() -> AsyncStream<SessionStoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionStoreChange.self)
        let id = UUID()
        lock.withLock { continuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.remove(id)
        }
        return stream
    }

    /// Delivers a change to every current subscriber.
    func publish(_ change: SessionStoreChange) {
        for continuation in lock.withLock({ Array(continuations.values) }) {
            continuation.yield(change)
        }
    }

    /// Ends every stream (the store is going away).
    func finishAll() {
        let all = lock.withLock {
            let all = Array(continuations.values)
            continuations.removeAll()
            return all
        }
        for continuation in all {
            continuation.finish()
        }
    }

    /// How many streams are subscribed.
    var count: Int { lock.withLock { continuations.count } }

    private func remove(_ id: UUID) {
        lock.withLock { _ = continuations.removeValue(forKey: id) }
    }
}

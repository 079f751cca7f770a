import Foundation
import Synchronization

/// The consumers of `SessionStore.changes`: one stream continuation each, removed when its stream ends.
///
/// Continuations are called outside the mutex, because finishing one runs its `onTermination`, which takes the
/// mutex again.
final class SessionStoreSubscribers: Sendable {
    private let continuations = Mutex<[UUID: AsyncStream<SessionStoreChange>.Continuation]>([:])

    /// A new stream that receives every change published from now on.
    func makeStream() -> AsyncStream<SessionStoreChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: SessionStoreChange.self)
        let id = UUID()
        continuations.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.remove(id)
        }
        return stream
    }

    /// Delivers a change to every current subscriber.
    func publish(_ change: SessionStoreChange) {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.yield(change)
        }
    }

    /// Ends every stream (the store is going away).
    func finishAll() {
        let all = continuations.withLock { continuations in
            let all = Array(continuations.values)
            continuations.removeAll()
            return all
        }
        for continuation in all {
            continuation.finish()
        }
    }

    /// How many streams are subscribed.
    var count: Int { continuations.withLock { $0.count } }

    private func remove(_ id: UUID) {
        continuations.withLock { _ = $0.removeValue(forKey: id) }
    }
}

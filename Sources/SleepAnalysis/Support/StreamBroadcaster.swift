import Foundation
import Synchronization

/// Fans one producer out to any number of `AsyncStream` consumers.
///
/// `AsyncStream` is single-consumer, so each call to `makeStream()` registers a continuation of its own; it is
/// removed when its consumer stops iterating (or its task is cancelled).
final class StreamBroadcaster<Element: Sendable>: Sendable {
    private struct State {
        var nextToken = 0
        var continuations: [Int: AsyncStream<Element>.Continuation] = [:]
        var latest: Element?
    }

    private let state = Mutex(State())
    private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy
    private let replaysLatest: Bool

    /// Creates a broadcaster; each subscriber buffers up to `bufferSize` undelivered elements (oldest dropped).
    ///
    /// - Parameter replaysLatest: A new subscriber first receives the latest element (until `forgetLatest()`),
    ///   for streams that describe a current state (the alarm's, the microphone's).
    init(bufferSize: Int = 4096, replaysLatest: Bool = false) {
        bufferingPolicy = .bufferingNewest(bufferSize)
        self.replaysLatest = replaysLatest
    }

    /// Forgets the latest element (the state it described is over), so new subscribers start empty.
    func forgetLatest() { state.withLock { $0.latest = nil } }

    /// A new stream that receives `initial` (when given) and then every element yielded from now on.
    func makeStream(startingWith initial: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        let token = state.withLock { state in
            if let first = initial ?? (replaysLatest ? state.latest : nil) { continuation.yield(first) }
            let token = state.nextToken
            state.nextToken += 1
            state.continuations[token] = continuation
            return token
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.continuations.removeValue(forKey: token) }
        }
        return stream
    }

    /// Delivers `element` to every current subscriber.
    func yield(_ element: Element) {
        let continuations = state.withLock { state in
            if replaysLatest { state.latest = element }
            return Array(state.continuations.values)
        }
        for continuation in continuations { continuation.yield(element) }
    }

    /// The number of current subscribers.
    var subscriberCount: Int { state.withLock { $0.continuations.count } }
}

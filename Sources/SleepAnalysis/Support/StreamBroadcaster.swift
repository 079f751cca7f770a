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
    }

    private let state = Mutex(State())
    private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy

    /// Creates a broadcaster; each subscriber buffers up to `bufferSize` undelivered elements (oldest dropped).
    init(bufferSize: Int = 4096) {
        bufferingPolicy = .bufferingNewest(bufferSize)
    }

    /// A new stream that receives `initial` (when given) and then every element yielded from now on.
    func makeStream(startingWith initial: Element? = nil) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        if let initial { continuation.yield(initial) }
        let token = state.withLock { state in
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
        let continuations = state.withLock { Array($0.continuations.values) }
        for continuation in continuations { continuation.yield(element) }
    }

    /// The number of current subscribers.
    var subscriberCount: Int { state.withLock { $0.continuations.count } }
}

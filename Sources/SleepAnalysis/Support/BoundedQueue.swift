import Foundation

/// A blocking first-in first-out queue of bounded capacity between a producer thread and a consumer thread.
///
/// `put` blocks while the queue is full (back-pressure on the producer); `take` blocks while it is empty and
/// returns nil once the queue is closed and drained. Meant for dedicated threads, never the cooperative pool.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // All stored state is guarded by `condition`.
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int

    /// Creates a queue holding at most `capacity` elements.
    init(capacity: Int) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
    }

    /// Appends `element`, waiting while the queue is full. Returns false (dropping nothing silently: the
    /// caller learns it) when the queue has been closed.
    @discardableResult
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed && items.count - head >= capacity { condition.wait() }
        if closed { return false }
        items.append(element)
        condition.broadcast()
        return true
    }

    /// Removes the oldest element, waiting while the queue is empty; nil when closed and drained.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && items.count == head { condition.wait() }
        if items.count == head { return nil }
        return removeOldest()
    }

    /// Removes the oldest element if one arrives within `timeout` seconds.
    func take(timeout: TimeInterval) -> (element: Element?, closed: Bool) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while !closed && items.count == head {
            if !condition.wait(until: deadline) { break }
        }
        if items.count == head { return (nil, closed) }
        return (removeOldest(), false)
    }

    /// Takes the element at `head` and drops the consumed prefix once it outgrows the live part, so that
    /// consumed elements are released. Call with the lock held and the queue not empty.
    private func removeOldest() -> Element {
        let element = items[head]
        head += 1
        if head >= capacity {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return element
    }

    /// Closes the queue: producers stop, the consumer drains what is left.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

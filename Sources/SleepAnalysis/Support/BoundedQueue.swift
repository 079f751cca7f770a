import Foundation

/// A blocking first-in first-out queue of bounded capacity between a producer thread and a consumer thread.
///
/// `put` blocks while the queue is full (back-pressure on the producer); `take` blocks while it is empty and
/// returns nil once the queue is closed and drained. Meant for dedicated threads, never the cooperative pool.
///
/// A producer that found the queue full sleeps until it is half empty, not just until one slot frees, and each side
/// is woken only when the other waits: a fast producer and a slow consumer then trade a wake-up every
/// `capacity / 2` elements instead of two per element (each wake-up is a system call and a context switch).
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // All stored state is guarded by `condition`.
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int
    /// A full queue's producer waits until at most this many elements are left.
    private let lowWater: Int
    private var waitingProducers = 0
    private var waitingConsumers = 0
    private var wakeUps = 0

    /// Creates a queue holding at most `capacity` elements.
    init(capacity: Int) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        lowWater = capacity / 2
    }

    private var count: Int { items.count - head }

    /// How many times one side woke the other so far (for tests of the hand-over's cost).
    var wakeUpCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return wakeUps
    }

    /// Wakes the threads waiting on the queue. Call with the lock held.
    private func wakeWaiters() {
        wakeUps += 1
        condition.broadcast()
    }

    /// Appends `element`, waiting while the queue is full. Returns false (dropping nothing silently: the
    /// caller learns it) when the queue has been closed.
    @discardableResult
    func put(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if count >= capacity {
            waitingProducers += 1
            while !closed && count > lowWater { condition.wait() }
            waitingProducers -= 1
        }
        if closed { return false }
        items.append(element)
        if waitingConsumers > 0 { wakeWaiters() }
        return true
    }

    /// Removes the oldest element, waiting while the queue is empty; nil when closed and drained.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        waitingConsumers += 1
        while !closed && count == 0 { condition.wait() }
        waitingConsumers -= 1
        if count == 0 { return nil }
        return removeOldest()
    }

    /// Removes the oldest element if one arrives within `timeout` seconds.
    func take(timeout: TimeInterval) -> (element: Element?, closed: Bool) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        waitingConsumers += 1
        while !closed && count == 0 {
            if !condition.wait(until: deadline) { break }
        }
        waitingConsumers -= 1
        if count == 0 { return (nil, closed) }
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
        if waitingProducers > 0 && count <= lowWater { wakeWaiters() }
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

import Foundation

/// A blocking first-in first-out queue of bounded capacity between a producer thread and a consumer thread.
///
/// The capacity is counted in units of the queue's `weight` (one per element unless told otherwise), so a queue of
/// audio chunks can hold the same amount of samples whatever the chunks' rate and channels.
///
/// `put` blocks while the queue is full (back-pressure on the producer); `take` blocks while it is empty and
/// returns nil once the queue is closed and drained. Meant for dedicated threads, never the cooperative pool.
///
/// A producer that found the queue full sleeps until it is half empty, not just until one slot frees, and each side
/// is woken only when the other waits: a fast producer and a slow consumer then trade a wake-up every
/// half capacity instead of two per element (each wake-up is a system call and a context switch).
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    // All stored state is guarded by `condition`.
    private let condition = NSCondition()
    /// The queue's elements from `head` on; the consumed ones before it are nil, so that they are released as
    /// soon as they are taken (a queue of audio chunks would otherwise hold twice its capacity in samples).
    private var items: [Element?] = []
    private var head = 0
    private var closed = false
    private let capacity: Int
    /// A full queue's producer waits until at most this much weight is left.
    private let lowWater: Int
    /// What an element counts against the capacity (at least 1).
    private let weight: @Sendable (Element) -> Int
    /// The total weight of the live elements.
    private var load = 0
    private var waitingProducers = 0
    private var waitingConsumers = 0
    private var wakeUps = 0

    /// Creates a queue holding at most `capacity` elements, or, with `weight`, elements weighing `capacity` in all
    /// (a single element heavier than that is let in when the queue is empty).
    init(capacity: Int, weight: @escaping @Sendable (Element) -> Int = { _ in 1 }) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        lowWater = capacity / 2
        self.weight = { element in max(1, weight(element)) }
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
        if load >= capacity {
            waitingProducers += 1
            while !closed && load > lowWater { condition.wait() }
            waitingProducers -= 1
        }
        if closed { return false }
        items.append(element)
        load += weight(element)
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

    /// Takes the element at `head` (never nil in the live part), leaving nil in its place, and drops the consumed
    /// prefix once it reaches the capacity. Call with the lock held and the queue not empty.
    private func removeOldest() -> Element? {
        let element = items[head]
        items[head] = nil
        head += 1
        if let element { load -= weight(element) }
        if head >= capacity {
            items.removeFirst(head)
            head = 0
        }
        if waitingProducers > 0 && load <= lowWater { wakeWaiters() }
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

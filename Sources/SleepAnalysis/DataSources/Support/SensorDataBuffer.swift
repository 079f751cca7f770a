import Foundation

/// A bounded queue between a data source's thread and one async consumer: the `SensorDataSink` a pipeline hands
/// to `DataSource.start(delivering:)`.
///
/// `deliver` blocks the source's thread while `capacity` items wait (back-pressure: a replay as fast as possible
/// goes at the analysis's speed and memory stays bounded); `next()` suspends the consumer, never blocking a
/// cooperative thread, until an item or the end arrives. `close()` (the consumer is done) discards what waits
/// and releases a blocked source, whose later deliveries are dropped, so `stop()` then ends the source promptly.
final class SensorDataBuffer: SensorDataSink, @unchecked Sendable {
    /// What the consumer gets.
    enum Element: Sendable {
        /// The next piece of data.
        case data(SensorData)
        /// The source ended: nil at the end of its input (or after `stop()`), else why it failed.
        case finished(SleepCycleSdkError?)
    }

    /// The most items waiting before `deliver` blocks.
    let capacity: Int

    private let condition = NSCondition()
    private var queue: [SensorData] = []
    private var head = 0
    private var ending: SleepCycleSdkError??
    private var endDelivered = false
    private var closed = false
    private var waiter: CheckedContinuation<Element?, Never>?

    /// Creates an empty buffer holding at most `capacity` items (at least 1).
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    /// Queues `data`, blocking the calling (source) thread while the buffer is full; drops it after `close()`.
    func deliver(_ data: SensorData) {
        condition.lock()
        while queue.count - head >= capacity, !closed { condition.wait() }
        guard !closed, ending == nil else {
            condition.unlock()
            return
        }
        if let waiter {
            self.waiter = nil
            condition.unlock()
            waiter.resume(returning: .data(data))
            return
        }
        queue.append(data)
        condition.unlock()
    }

    /// Records the end; the consumer gets it after every item queued before it.
    func finish(error: SleepCycleSdkError?) {
        condition.lock()
        guard ending == nil else {
            condition.unlock()
            return
        }
        ending = .some(error)
        if let waiter, queue.count == head {
            self.waiter = nil
            endDelivered = true
            condition.unlock()
            waiter.resume(returning: .finished(error))
            return
        }
        condition.unlock()
    }

    /// The next item, or `.finished` once, then nil. One consumer at a time.
    func next() async -> Element? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
            condition.lock()
            if head < queue.count {
                let item = queue[head]
                head += 1
                if head >= 64, head * 2 >= queue.count {
                    queue.removeFirst(head)
                    head = 0
                }
                condition.broadcast()
                condition.unlock()
                continuation.resume(returning: .data(item))
            } else if let ending, !endDelivered {
                endDelivered = true
                condition.unlock()
                continuation.resume(returning: .finished(ending))
            } else if endDelivered || closed {
                condition.unlock()
                continuation.resume(returning: nil)
            } else {
                precondition(waiter == nil, "SensorDataBuffer has one consumer")
                waiter = continuation
                condition.unlock()
            }
        }
    }

    /// The consumer is done: discards waiting items, releases a blocked `deliver` and drops later ones; a
    /// pending `next()` returns nil.
    func close() {
        condition.lock()
        closed = true
        queue.removeAll()
        head = 0
        let pending = waiter
        waiter = nil
        condition.broadcast()
        condition.unlock()
        pending?.resume(returning: nil)
    }
}

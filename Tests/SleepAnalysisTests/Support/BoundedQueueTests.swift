import Foundation
import XCTest

@testable import SleepAnalysis

final class BoundedQueueTests: XCTestCase {
    /// A reference type whose deallocation the test can see.
    private final class Tracked: Sendable {
        let onDeinit: @Sendable () -> Void
        init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }

    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() { lock.withLock { value += 1 } }
        var count: Int { lock.withLock { value } }
    }

    func test_queue_releases_consumed_elements_with_both_take_variants() {
        let queue = BoundedQueue<Tracked>(capacity: 4)
        let released = Counter()
        for round in 0..<200 {
            queue.put(Tracked { released.increment() })
            if round % 2 == 0 {
                _ = queue.take()
            } else {
                _ = queue.take(timeout: 1)
            }
        }
        XCTAssertGreaterThanOrEqual(released.count, 200 - 4, "consumed elements must not stay referenced")
    }

    func test_queue_blocks_the_producer_when_full_and_drains_after_close() {
        let queue = BoundedQueue<Int>(capacity: 2)
        XCTAssertTrue(queue.put(1))
        XCTAssertTrue(queue.put(2))
        let third = expectation(description: "third put returns once there is room")
        Thread {
            queue.put(3)
            third.fulfill()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(queue.take(), 1)
        wait(for: [third], timeout: 2)
        queue.close()
        XCTAssertEqual(queue.take(), 2)
        XCTAssertEqual(queue.take(), 3)
        XCTAssertNil(queue.take())
        XCTAssertFalse(queue.put(4))
    }
}

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
            // Released as soon as taken: a queue of audio chunks must not hold consumed samples.
            XCTAssertEqual(released.count, round + 1, "the element taken in round \(round) is still referenced")
        }
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

    func test_a_fast_producer_wakes_a_slow_consumer_rarely_and_loses_nothing() {
        let queue = BoundedQueue<Int>(capacity: 8)
        let elements = 800
        let producer = Thread {
            for value in 0..<elements { queue.put(value) }
            queue.close()
        }
        producer.start()
        var received: [Int] = []
        while let value = queue.take() {
            received.append(value)
            if value % 2 == 0 { Thread.sleep(forTimeInterval: 0.000_2) }  // the slow side: the analysis
        }
        XCTAssertEqual(received, Array(0..<elements), "every element, in order")
        // A full queue's producer sleeps until it is half empty: about one wake-up per 4 elements here, where
        // waking on every element (as before) costs one or two per element.
        XCTAssertLessThan(queue.wakeUpCount, elements / 2, "wake-ups: \(queue.wakeUpCount)")
    }

    /// The pipeline's queue weighs audio by its samples: heavy chunks fill it sooner than light ones.
    private final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var raised = false
        func raise() { lock.withLock { raised = true } }
        var isRaised: Bool { lock.withLock { raised } }
    }

    func test_a_weighted_queue_counts_weights_against_its_capacity() {
        let queue = BoundedQueue<Int>(capacity: 4, weight: { $0 })
        XCTAssertTrue(queue.put(9), "an element heavier than the capacity goes into an empty queue")
        XCTAssertEqual(queue.take(), 9)
        XCTAssertTrue(queue.put(3))
        XCTAssertTrue(queue.put(3))  // weight 3 < 4 when it came: let in
        let returned = Flag()
        let third = expectation(description: "the light element goes in once the weight is down to half")
        Thread {
            queue.put(1)
            returned.raise()
            third.fulfill()
        }.start()
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertFalse(returned.isRaised, "weight 6 of 4: the producer waits")
        XCTAssertEqual(queue.take(), 3)
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertFalse(returned.isRaised, "weight 3, above half the capacity: still waiting")
        XCTAssertEqual(queue.take(), 3)
        wait(for: [third], timeout: 2)
        XCTAssertEqual(queue.take(), 1)
    }

    func test_the_pipeline_weighs_audio_by_its_samples_and_commands_as_one() {
        let stereo = AudioChunk(
            samples: [Float](repeating: 0, count: 44_100), channelCount: 2, sampleRate: 44_100, firstFrameIndex: 0)
        let mono = AudioChunk(
            samples: [Float](repeating: 0, count: 8_000), channelCount: 1, sampleRate: 16_000, firstFrameIndex: 0)
        let tiny = AudioChunk(samples: [0, 0], channelCount: 1, sampleRate: 16_000, firstFrameIndex: 0)
        XCTAssertEqual(AnalysisPipeline.Message.queueWeight(.data(.audio(stereo))), 5)
        XCTAssertEqual(AnalysisPipeline.Message.queueWeight(.data(.audio(mono))), 1)
        XCTAssertEqual(AnalysisPipeline.Message.queueWeight(.data(.audio(tiny))), 1)
        XCTAssertEqual(AnalysisPipeline.Message.queueWeight(.sourceFinished(nil, analysed: nil)), 1)
    }
}

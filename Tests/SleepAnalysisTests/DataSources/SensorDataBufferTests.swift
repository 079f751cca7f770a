import Foundation
import XCTest

@testable import SleepAnalysis

final class SensorDataBufferTests: XCTestCase {
    private static func heartRate(_ index: Int) -> SensorData {
        .heartRate([HeartRateSample(timestamp: Date(timeIntervalSince1970: Double(index)), bpm: 60)])
    }

    private func index(of element: SensorDataBuffer.Element?) -> Int? {
        guard case .data(.heartRate(let samples))? = element else { return nil }
        return Int(samples[0].timestamp.timeIntervalSince1970)
    }

    func test_buffer_blocksProducer_whenFull_andDeliversInOrder() async throws {
        let buffer = SensorDataBuffer(capacity: 2)
        let produced = DataSourceLock(0)
        let thread = Thread {
            for index in 0..<10 {
                buffer.deliver(Self.heartRate(index))
                produced.withLock { $0 += 1 }
            }
            buffer.finish(error: .invalidInput("test end"))
        }
        thread.start()
        for _ in 0..<200 where produced.withLock({ $0 }) < 2 { try await Task.sleep(nanoseconds: 10_000_000) }
        try await Task.sleep(nanoseconds: 50_000_000)

        XCTAssertEqual(produced.withLock { $0 }, 2, "the producer waits once two items are queued")
        var received: [Int] = []
        while let element = await buffer.next() {
            if let index = index(of: element) {
                received.append(index)
            } else if case .finished(let error) = element {
                XCTAssertEqual(error, .invalidInput("test end"))
            }
        }
        XCTAssertEqual(received, Array(0..<10))
        let afterEnd = await buffer.next()
        XCTAssertNil(afterEnd)
    }

    func test_buffer_close_releasesBlockedProducer_andDropsLaterItems() async throws {
        let buffer = SensorDataBuffer(capacity: 1)
        let finished = expectation(description: "producer finished")
        let thread = Thread {
            for index in 0..<5 { buffer.deliver(Self.heartRate(index)) }
            finished.fulfill()
        }
        thread.start()
        try await Task.sleep(nanoseconds: 50_000_000)

        buffer.close()

        await fulfillment(of: [finished], timeout: 2)
        let next = await buffer.next()
        XCTAssertNil(next)
    }

    func test_buffer_carriesAReplay_endToEnd() async throws {
        let files = try DataSourceTestFiles()
        let audio = try files.audio("a.flac", sampleRate: 8_000, channelCount: 2, frames: 8_000 * 5, format: .flac16)
        let source = FileDataSource(audio: audio.url, accelerometer: nil)
        let buffer = SensorDataBuffer(capacity: 2)

        try source.start(delivering: buffer)
        var samples: [Float] = []
        var ending: SleepCycleSdkError??
        while let element = await buffer.next() {
            switch element {
            case .data(.audio(let chunk)): samples += chunk.samples
            case .data: XCTFail("only audio expected")
            case .finished(let error): ending = .some(error)
            }
        }
        await source.waitUntilFinished()

        XCTAssertTrue(samples == audio.samples)
        XCTAssertEqual(ending, .some(nil))
    }
}

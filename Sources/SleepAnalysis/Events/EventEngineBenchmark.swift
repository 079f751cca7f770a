import Foundation

/// Measures the event engine's speed on synthetic audio (for `sleepanalysis-bench events`).
public enum EventEngineBenchmark {
    /// Timings of one run: CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), so that other load on the
    /// machine does not inflate them; everything runs on that one thread.
    public struct Result: Sendable {
        /// Seconds of audio processed.
        public var audioSeconds: Double
        /// Time spent in the front end (log-mel, levels).
        public var frontEndSeconds: Double
        /// Time spent in the event detector (pooling, network, tracking).
        public var detectorSeconds: Double
        /// Events the detector reported.
        public var eventCount: Int
        /// The same events counted by type.
        public var eventCountByType: [EventType: Int]
    }

    /// Runs the front end and the detector (every type enabled) over `hours` of synthetic bedroom audio: room
    /// noise with a burst of louder, modulated noise every 20 seconds.
    ///
    /// - Parameters:
    ///   - hours: Length of the synthetic night.
    ///   - model: The model to run.
    /// - Returns: The timings.
    /// - Throws: `SleepCycleSdkError` when the front end or the detector cannot be set up.
    public static func run(hours: Double, model: EventClassifierModel) throws -> Result {
        let seconds = Int(hours * 3600)
        let frontEnd = try FrontEnd()
        let detector = try EventDetector(model: model, enabledTypes: Set(EventType.allCases), sessionId: UUID())
        var state: UInt64 = 12_345
        var batch = [Float](repeating: 0, count: AudioBatch.standardLength)
        var frontEndTime = 0.0
        var detectorTime = 0.0
        var byType: [EventType: Int] = [:]
        let origin = Date(timeIntervalSince1970: 0)
        for second in 0..<seconds {
            let loud: Float = second % 20 < 2 ? 0.05 : 0.001
            for index in batch.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let white = Float(Double(state >> 11) / Double(1 << 53)) - 0.5
                let envelope = 1 + Float(sin(Double(index) * 2 * .pi * 2 / 16_000))
                batch[index] = white * loud * envelope
            }
            let t0 = threadCPUTime()
            let block = frontEnd.process(batch)
            let t1 = threadCPUTime()
            let output = detector.process(features: block, batchStart: origin.addingTimeInterval(Double(second)),
                                          firstSampleIndex: Int64(second * AudioBatch.standardLength))
            let t2 = threadCPUTime()
            for event in output.ended { byType[event.type, default: 0] += 1 }
            frontEndTime += t1 - t0
            detectorTime += t2 - t1
        }
        for event in detector.finish().ended { byType[event.type, default: 0] += 1 }
        return Result(audioSeconds: Double(seconds), frontEndSeconds: frontEndTime, detectorSeconds: detectorTime,
                      eventCount: byType.values.reduce(0, +), eventCountByType: byType)
    }

    /// CPU seconds used by the calling thread.
    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

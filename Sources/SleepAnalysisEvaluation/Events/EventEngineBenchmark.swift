import Foundation
import SleepAnalysis

/// Measures the event engine's speed on synthetic audio or a recording (for `sleepanalysis-bench events`).
package enum EventEngineBenchmark {
    /// Timings of one run: CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`), so that other load on the
    /// machine does not inflate them; everything runs on that one thread.
    package struct Result: Sendable {
        /// Seconds of audio processed.
        package var audioSeconds: Double
        /// Time spent in the front end (log-mel, levels).
        package var frontEndSeconds: Double
        /// Time spent in the event detector (pooling, network, tracking).
        package var detectorSeconds: Double
        /// Events the detector reported.
        package var eventCount: Int
        /// The same events counted by type.
        package var eventCountByType: [EventType: Int]
        /// Windows classified.
        package var windowCount: Int
        /// Windows on which every network of the model ran (fewer than `windowCount` with a cascade gate).
        package var windowsWithEveryMember: Int
    }

    /// Runs the front end and the detector (every type enabled) over `hours` of synthetic bedroom audio: room
    /// noise with a burst of louder, modulated noise every 20 seconds.
    ///
    /// - Parameters:
    ///   - hours: Length of the synthetic night.
    ///   - model: The model to run.
    /// - Returns: The timings.
    /// - Throws: `SleepCycleSdkError` when the front end or the detector cannot be set up.
    package static func run(hours: Double, model: EventClassifierModel) throws -> Result {
        let seconds = Int(hours * 3600)
        var state: UInt64 = 12_345
        var second = 0
        var batch = [Float](repeating: 0, count: AudioBatch.standardLength)
        return try measure(model: model) {
            guard second < seconds else { return nil }
            let loud: Float = second % 20 < 2 ? 0.05 : 0.001
            for index in batch.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let white = Float(Double(state >> 11) / Double(1 << 53)) - 0.5
                let envelope = 1 + Float(sin(Double(index) * 2 * .pi * 2 / 16_000))
                batch[index] = white * loud * envelope
            }
            second += 1
            return batch
        }
    }

    /// Runs the front end and the detector (every type enabled) over a recording, decoded, mixed to mono and
    /// resampled to 16 kHz beforehand in blocks (that work is not timed).
    ///
    /// - Parameters:
    ///   - file: The recording (any format libsndfile reads, mono or stereo, any rate).
    ///   - model: The model to run.
    /// - Returns: The timings.
    /// - Throws: `SleepCycleSdkError.invalidInput` for an unreadable file, or when the front end or the detector
    ///   cannot be set up.
    package static func run(file: URL, model: EventClassifierModel) throws -> Result {
        let reader = try AudioFileReader(url: file)
        let resampler = try Resampler(inputRate: reader.sampleRate, outputRate: 16_000, channelCount: 1)
        var pending: [Float] = []
        var finished = false
        return try measure(model: model) {
            while pending.count < AudioBatch.standardLength, !finished {
                if let mono = try reader.readMono(maxFrames: 16_384) {
                    pending += try resampler.process(mono)
                } else {
                    pending += try resampler.flush()
                    finished = true
                }
            }
            guard !pending.isEmpty else { return nil }
            let batch = Array(pending.prefix(AudioBatch.standardLength))
            pending.removeFirst(batch.count)
            return batch
        }
    }

    /// Feeds the batches `next` gives (until nil) through a front end and a detector, timing each.
    private static func measure(model: EventClassifierModel, next: () throws -> [Float]?) throws -> Result {
        let frontEnd = try FrontEnd()
        let detector = try EventDetector(model: model, enabledTypes: Set(EventType.allCases), sessionId: UUID())
        var frontEndTime = 0.0
        var detectorTime = 0.0
        var byType: [EventType: Int] = [:]
        var samples: Int64 = 0
        let origin = Date(timeIntervalSince1970: 0)
        while let batch = try next() {
            let t0 = threadCPUTime()
            let block = frontEnd.process(batch)
            let t1 = threadCPUTime()
            let start = origin.addingTimeInterval(Double(samples) / 16_000)
            let output = detector.process(features: block, batchStart: start, firstSampleIndex: samples)
            let t2 = threadCPUTime()
            for event in output.ended { byType[event.type, default: 0] += 1 }
            frontEndTime += t1 - t0
            detectorTime += t2 - t1
            samples += Int64(batch.count)
        }
        let t0 = threadCPUTime()
        for event in detector.finish().ended { byType[event.type, default: 0] += 1 }
        detectorTime += threadCPUTime() - t0
        let counts = detector.windowCounts
        return Result(
            audioSeconds: Double(samples) / 16_000, frontEndSeconds: frontEndTime,
            detectorSeconds: detectorTime, eventCount: byType.values.reduce(0, +), eventCountByType: byType,
            windowCount: counts.classified, windowsWithEveryMember: counts.everyMember)
    }

    /// CPU seconds used by the calling thread.
    private static func threadCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

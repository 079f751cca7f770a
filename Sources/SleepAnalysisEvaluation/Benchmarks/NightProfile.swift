import Foundation
import SleepAnalysis

/// Where a night's CPU goes, stage by stage: the recording is decoded, resampled to 16 kHz, run through the front end
/// and fed in one-second batches to the events, breathing-rate and audio-health engines on one thread, each stage
/// timed by that thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`, so other load on the machine does not count).
///
/// Staging, batching, the journal and the hand-offs between threads are not run here: they are what the whole
/// pipeline costs beyond the sum of these stages (`sleepanalysis-bench profile` prints both).
package enum NightProfile {
    /// The stages timed, in the order a batch goes through them.
    package enum Stage: String, Sendable, CaseIterable {
        /// Decoding the file (and mixing stereo to mono).
        case decode
        /// Resampling to 16 kHz (nothing when the file is at 16 kHz).
        case resample
        /// STFT, A-weighted and unweighted levels, log-mel bands.
        case frontEnd
        /// The audio events detector (every event type).
        case events
        /// The breathing-rate estimator (audio).
        case breathing
        /// The audio health monitor.
        case audioHealth
    }

    /// What one run measured.
    package struct Result: Sendable {
        /// Seconds of audio analysed.
        package var audioSeconds: Double
        /// CPU seconds per stage.
        package var cpuSeconds: [Stage: Double]
        /// Events, breathing rates and health updates the engines gave (so none can be optimised away).
        package var outputs: Int
    }

    /// Runs every stage over `file`.
    ///
    /// - Parameter file: The recording (any format `AudioFileReader` reads, mono or stereo, any rate).
    /// - Returns: The CPU seconds of each stage.
    /// - Throws: `SleepCycleSdkError` when the file cannot be read or an engine cannot be set up.
    package static func run(file: URL) throws -> Result {
        let reader = try AudioFileReader(url: file)
        let resampler = try Resampler(inputRate: reader.sampleRate, outputRate: 16_000, channelCount: 1)
        let frontEnd = try FrontEnd()
        let detector = try EventDetector(
            model: try EventClassifierModel.bundled(), enabledTypes: Set(EventType.allCases), sessionId: UUID())
        let breathing = try BreathingRateEstimator(sessionId: UUID())
        let health = try AudioHealthMonitor(sessionId: UUID())
        var clock = StageClock()
        var outputs = 0
        var pending: [Float] = []
        var analysed: Int64 = 0
        let origin = Date(timeIntervalSince1970: 0)
        func analyse(_ samples: [Float]) {
            let features = clock.time(.frontEnd) { frontEnd.process(samples) }
            let start = origin.addingTimeInterval(Double(analysed) / 16_000)
            let batch = AudioBatch(firstSampleIndex: analysed, startTime: start, samples: samples, features: features)
            outputs += clock.time(.events) {
                detector.process(features: features, batchStart: start, firstSampleIndex: analysed).ended.count
            }
            outputs += clock.time(.breathing) { breathing.process(batch).count }
            outputs += clock.time(.audioHealth) { health.process(batch).count }
            analysed += Int64(samples.count)
        }
        while let mono = try clock.time(.decode, { try reader.readMono(maxFrames: 16_384) }) {
            pending += try clock.time(.resample) { try resampler.process(mono) }
            while pending.count >= AudioBatch.standardLength {
                analyse(Array(pending.prefix(AudioBatch.standardLength)))
                pending.removeFirst(AudioBatch.standardLength)
            }
        }
        pending += try clock.time(.resample) { try resampler.flush() }
        if !pending.isEmpty { analyse(pending) }
        outputs += clock.time(.events) { detector.finish().ended.count }
        outputs += clock.time(.breathing) { breathing.finish().count }
        return Result(audioSeconds: Double(analysed) / 16_000, cpuSeconds: clock.seconds, outputs: outputs)
    }

    /// Adds up the calling thread's CPU time per stage.
    private struct StageClock {
        var seconds: [Stage: Double] = [:]

        mutating func time<T>(_ stage: Stage, _ work: () throws -> T) rethrows -> T {
            let start = Self.threadCPUSeconds()
            defer { seconds[stage, default: 0] += Self.threadCPUSeconds() - start }
            return try work()
        }

        static func threadCPUSeconds() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }
}

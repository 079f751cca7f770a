import Foundation
import SleepAnalysis

/// The breathing-rate estimator's and audio health monitor's cost on synthetic audio, for `sleepanalysis-bench`.
package enum VitalsBenchmark {
    /// What one run measured.
    package struct Result: Sendable {
        /// Seconds of audio analysed.
        package var audioSeconds: Double
        /// Processor-clock seconds spent in the breathing-rate estimator.
        package var breathingSeconds: Double
        /// Processor-clock seconds spent in the audio health monitor.
        package var healthSeconds: Double
        /// Estimates the breathing engine produced.
        package var estimateCount: Int
    }

    /// Feeds `hours` of noise with breath-like bursts at 14 per minute, in one-second batches, to both engines (the
    /// front end's features, which the breathing engine reads, are computed outside the timings: the pipeline
    /// computes them once for every engine).
    ///
    /// - Parameter hours: Length of the synthetic audio.
    /// - Returns: The timings.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` only if the default configurations were invalid.
    package static func run(hours: Double) throws -> Result {
        let breathing = try BreathingRateEstimator(sessionId: UUID())
        let health = try AudioHealthMonitor(sessionId: UUID())
        let frontEnd = try FrontEnd()  // shared by every engine in the pipeline, so not timed here
        let start = Date(timeIntervalSince1970: 0)
        var state: UInt32 = 12_345
        var batch = [Float](repeating: 0, count: AudioBatch.standardLength)
        var breathingClock = 0.0, healthClock = 0.0
        var estimates = 0
        let seconds = Int(hours * 3600)
        for second in 0..<seconds {
            for i in batch.indices {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Float(Int32(bitPattern: state)) / Float(Int32.max)
                let t = Double(second) + Double(i) / Double(AudioBatch.sampleRate)
                let phase = (t * 14 / 60).truncatingRemainder(dividingBy: 1)
                batch[i] = noise * (phase < 0.4 ? 0.004 : 0.001)
            }
            let audio = AudioBatch(
                firstSampleIndex: Int64(second * AudioBatch.sampleRate),
                startTime: start.addingTimeInterval(Double(second)), samples: batch,
                features: frontEnd.process(batch))
            var clock = ProcessInfo.processInfo.systemUptime
            estimates += breathing.process(audio).count
            breathingClock += ProcessInfo.processInfo.systemUptime - clock
            clock = ProcessInfo.processInfo.systemUptime
            _ = health.process(audio)
            healthClock += ProcessInfo.processInfo.systemUptime - clock
        }
        estimates += breathing.finish().count
        return Result(
            audioSeconds: Double(seconds), breathingSeconds: breathingClock, healthSeconds: healthClock,
            estimateCount: estimates)
    }
}

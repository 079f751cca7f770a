import Foundation
import SleepAnalysis
import Synchronization

/// Replays a recording through `FileDataSource` as fast as possible into a sink that keeps only counts, for the
/// benchmark: it shows the replay's speed and that its memory does not grow with the file's length.
package enum FileReplayRun {
    /// What a replay delivered.
    package struct Summary: Sendable {
        /// Seconds of audio delivered.
        package var audioDuration: Double
        /// Audio chunks delivered.
        package var chunks: Int
        /// Accelerometer readings delivered.
        package var accelerometerRows: Int
        /// The audio's sample rate (Hz), 0 without audio.
        package var sampleRate: Double
        /// Sum of every sample, so the delivery cannot be optimised away.
        package var checksum: Double
    }

    /// Replays the files to the end.
    ///
    /// - Parameters:
    ///   - file: An audio file, or nil.
    ///   - accelerometer: An accelerometer CSV file, or nil.
    /// - Returns: what was delivered.
    /// - Throws: `SleepCycleSdkError` when a file cannot be opened or fails mid-way.
    package static func run(file: URL?, accelerometer: URL? = nil) async throws -> Summary {
        let source = FileDataSource(
            audio: file, accelerometer: accelerometer, startTime: Date(timeIntervalSince1970: 0))
        let sink = CountingSink()
        try source.start(delivering: sink)
        await source.waitUntilFinished()
        return try sink.summary()
    }
}

/// Keeps counts of what it is given, nothing else.
private final class CountingSink: SensorDataSink, Sendable {
    private struct Counts {
        var frames: Double = 0
        var chunks = 0
        var accelerometerRows = 0
        var checksum = 0.0
        var sampleRate = 1.0
        var failure: SleepCycleSdkError?
    }

    private let counts = Mutex(Counts())

    func deliver(_ data: SensorData) {
        if case .accelerometer(let samples) = data {
            let sum = samples.reduce(0) { $0 + $1.z }
            counts.withLock { counts in
                counts.accelerometerRows += samples.count
                counts.checksum += sum
            }
        }
        guard case .audio(let chunk) = data else { return }
        let sum = chunk.samples.reduce(0, +)
        counts.withLock { counts in
            counts.frames += Double(chunk.frameCount)
            counts.chunks += 1
            counts.checksum += Double(sum)
            counts.sampleRate = chunk.sampleRate
        }
    }

    func finish(error: SleepCycleSdkError?) {
        counts.withLock { $0.failure = error }
    }

    func summary() throws -> FileReplayRun.Summary {
        let counts = self.counts.withLock { $0 }
        if let failure = counts.failure { throw failure }
        return FileReplayRun.Summary(
            audioDuration: counts.frames / counts.sampleRate, chunks: counts.chunks,
            accelerometerRows: counts.accelerometerRows, sampleRate: counts.chunks > 0 ? counts.sampleRate : 0,
            checksum: counts.checksum)
    }
}

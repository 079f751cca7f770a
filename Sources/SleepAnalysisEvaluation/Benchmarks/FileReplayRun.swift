import Foundation
import SleepAnalysis

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
private final class CountingSink: SensorDataSink, @unchecked Sendable {
    private let lock = NSLock()
    private var frames: Double = 0
    private var chunks = 0
    private var accelerometerRows = 0
    private var checksum = 0.0
    private var sampleRate = 1.0
    private var failure: SleepCycleSdkError?

    func deliver(_ data: SensorData) {
        if case .accelerometer(let samples) = data {
            lock.lock()
            accelerometerRows += samples.count
            checksum += samples.reduce(0) { $0 + $1.z }
            lock.unlock()
        }
        guard case .audio(let chunk) = data else { return }
        let sum = chunk.samples.reduce(0, +)
        lock.lock()
        frames += Double(chunk.frameCount)
        chunks += 1
        checksum += Double(sum)
        sampleRate = chunk.sampleRate
        lock.unlock()
    }

    func finish(error: SleepCycleSdkError?) {
        lock.lock()
        failure = error
        lock.unlock()
    }

    func summary() throws -> FileReplayRun.Summary {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw failure }
        return FileReplayRun.Summary(
            audioDuration: frames / sampleRate, chunks: chunks, accelerometerRows: accelerometerRows,
            sampleRate: chunks > 0 ? sampleRate : 0, checksum: checksum)
    }
}

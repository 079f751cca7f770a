import Foundation

/// How fast a recorded night is replayed. Timestamps are the same whatever the pace.
public enum ReplayPace: Sendable, Hashable {
    /// As fast as the analysis can go.
    case asFastAsPossible
    /// At the speed it was recorded.
    case realTime
    /// A multiple of real time (2 is twice as fast), from 0.001 to 1 000 000; other values are rejected with
    /// `SleepCycleSdkError.invalidConfiguration` when the replay starts.
    case speed(Double)
}

/// What a data source delivers, in time order within each kind.
public enum SensorData: Sendable {
    /// A block of audio.
    case audio(AudioChunk)
    /// Accelerometer readings.
    case accelerometer([AccelerometerSample])
    /// Heart-rate readings.
    case heartRate([HeartRateSample])
    /// Epoch-level activity counts.
    case activityCounts([ActivityCountSample])
}

/// Where a data source delivers its data. `deliver` may block the source's thread while the analysis
/// catches up (a bounded buffer): sources call it from a thread of their own, never from the cooperative pool.
public protocol SensorDataSink: AnyObject, Sendable {
    /// Takes the next piece of data.
    func deliver(_ data: SensorData)
    /// The source ended: `error` is nil at the end of its input, or says why it failed. The analysis's sink
    /// returns once it has analysed everything delivered before (and called the listeners with it), so a source
    /// that reports itself finished after this call tells its waiters that nothing is left in flight.
    func finish(error: SleepCycleSdkError?)
}

/// A source of sensor data for analysis: live capture or replay of recorded files.
///
/// The library ships `SleepCycleSdk.createLiveDataSource(device:)` (ALSA) and
/// `SleepCycleSdk.createFileDataSource(audio:accelerometer:heartRate:startTime:pace:)`; callers may write their own.
public protocol DataSource: AnyObject, Sendable {
    /// The time of the source's first audio frame (and the reference for its sensor timestamps).
    var startTime: Date { get }
    /// Audio channels delivered (1 or 2; 0 without audio).
    var channelCount: Int { get }
    /// True for a source that ends when its input ends (a recording), false for live capture.
    var isFinite: Bool { get }
    /// Starts delivering to `sink` on a thread of the source's own; returns at once.
    ///
    /// - Throws: `SleepCycleSdkError.dataSourceFailure` or `.invalidInput` when the input cannot be opened.
    func start(delivering sink: any SensorDataSink) throws
    /// Stops delivering; the sink then gets `finish(error: nil)`.
    func stop()
    /// Returns when the source has delivered everything it will deliver (its input ended, it failed or was
    /// stopped), and at once when it is not running: never started, or its start failed.
    ///
    /// Cancelling the waiting task stops the source, as `stop()` does, and the wait returns once the source has
    /// wound down (promptly: the library's sources within a chunk). The wait does not throw, so the seed's
    /// `await source.waitUntilFinished()` reads as before; the cancelled task learns of it from the next call that
    /// throws, such as `SleepAnalyzer.stopAnalysis(at:)`, which then throws `CancellationError` and returns no
    /// result. Sources written by callers should do the same: stop on cancellation, never outlive the wait.
    func waitUntilFinished() async
    /// What identifies the source's input, journaled so that a resume on other input is refused; nil (the
    /// default) when the source cannot say.
    var fingerprint: DataSourceFingerprint? { get }
}

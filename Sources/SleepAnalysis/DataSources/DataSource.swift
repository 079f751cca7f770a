import Foundation

/// How fast a recorded night is replayed. Timestamps are the same whatever the pace.
public enum ReplayPace: Sendable, Hashable {
    /// As fast as the analysis can go.
    case asFastAsPossible
    /// At the speed it was recorded.
    case realTime
    /// A multiple of real time (2 is twice as fast); must be positive.
    case speed(Double)
}

/// A block of audio: interleaved samples, `channelCount` per frame, at `sampleRate`.
public struct AudioChunk: Sendable {
    /// Interleaved samples in -1...1.
    public var samples: [Float]
    /// Channels per frame (1 or 2).
    public var channelCount: Int
    /// Frames per second.
    public var sampleRate: Double
    /// The index of the chunk's first frame since the source started (frames, not samples).
    public var firstFrameIndex: Int64

    /// Creates a chunk.
    ///
    /// - Parameters:
    ///   - samples: Interleaved samples in -1...1.
    ///   - channelCount: Channels per frame (1 or 2).
    ///   - sampleRate: Frames per second.
    ///   - firstFrameIndex: The index of the chunk's first frame since the source started (frames, not samples).
    public init(samples: [Float], channelCount: Int, sampleRate: Double, firstFrameIndex: Int64) {
        self.samples = samples
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.firstFrameIndex = firstFrameIndex
    }

    /// Frames in the chunk.
    public var frameCount: Int { channelCount > 0 ? samples.count / channelCount : 0 }
}

/// One accelerometer reading, in g.
public struct AccelerometerSample: Sendable, Hashable {
    /// When it was taken.
    public var timestamp: Date
    /// Acceleration along x, in g.
    public var x: Double
    /// Acceleration along y, in g.
    public var y: Double
    /// Acceleration along z, in g.
    public var z: Double

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - timestamp: When it was taken.
    ///   - x: Acceleration along x, in g.
    ///   - y: Acceleration along y, in g.
    ///   - z: Acceleration along z, in g.
    public init(timestamp: Date, x: Double, y: Double, z: Double) {
        self.timestamp = timestamp
        self.x = x
        self.y = y
        self.z = z
    }
}

/// One heart-rate reading from a wearable.
public struct HeartRateSample: Sendable, Hashable {
    /// When it was taken.
    public var timestamp: Date
    /// Beats per minute.
    public var bpm: Double

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - timestamp: When it was taken.
    ///   - bpm: Beats per minute.
    public init(timestamp: Date, bpm: Double) {
        self.timestamp = timestamp
        self.bpm = bpm
    }
}

/// An epoch-level actigraphy reading (activity counts from a device's own pipeline).
public struct ActivityCountSample: Sendable, Hashable {
    /// The start of the epoch.
    public var timestamp: Date
    /// The device's activity count for the epoch.
    public var activityCount: Double

    /// Creates a reading.
    ///
    /// - Parameters:
    ///   - timestamp: When it was taken.
    ///   - activityCount: The device's activity count for the epoch.
    public init(timestamp: Date, activityCount: Double) {
        self.timestamp = timestamp
        self.activityCount = activityCount
    }
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
    /// The source ended: `error` is nil at the end of its input, or says why it failed.
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
    /// Returns when the source has delivered everything it will deliver (its input ended, it failed or was stopped).
    func waitUntilFinished() async
}

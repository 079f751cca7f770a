import Foundation

/// Replays a recorded night from files: an audio file and/or sensor CSV files.
///
/// - Audio: anything libsndfile reads (WAV, FLAC, OGG, …), mono or stereo, any sample rate, delivered at its
///   own rate and channels in half-second `AudioChunk`s whose `firstFrameIndex` counts from 0 with no gap.
/// - Accelerometer CSV `timestamp,x,y,z` (g or m/s², delivered in g), heart-rate CSV `timestamp,bpm`,
///   actigraphy CSV `timestamp,activity_count`. Timestamps are seconds from `startTime`, Unix epoch seconds
///   (values above 1e9), or ISO 8601 with a zone.
///
/// Everything reaches the sink in time order: before each audio chunk come the sensor rows earlier than the
/// chunk's end. Files are streamed, so memory does not grow with their length. Timestamps are the same at every
/// `ReplayPace`; only the waiting differs. Reads run on a thread of the source's own. A malformed row or a
/// truncated audio file ends the replay with `sink.finish(error:)` carrying `SleepCycleSdkError.invalidInput`
/// (file, line, reason); what can be checked before replaying (files exist and are readable, the audio format
/// is known, CSV headers and first rows, the pace) is checked by `start(delivering:)`, which throws.
public final class FileDataSource: DataSource {
    /// The time of the first audio frame: the `startTime` given, else the moment this source was created.
    /// Relative CSV timestamps count from it.
    public let startTime: Date
    /// The audio file's channels (1 or 2), or 0 without audio (or when the file cannot be opened).
    public let channelCount: Int
    /// Always true: a replay ends when its input ends.
    public var isFinite: Bool { true }
    /// The audio file's length in seconds, as its header says, or nil without a readable audio file.
    public let audioDuration: TimeInterval?
    /// The audio file's sample rate (chunks are delivered at it), or nil without a readable audio file.
    public let audioSampleRate: Double?

    /// The audio file, if any.
    public let audioURL: URL?
    /// The accelerometer CSV file, if any.
    public let accelerometerURL: URL?
    /// The heart-rate CSV file, if any.
    public let heartRateURL: URL?
    /// The actigraphy CSV file, if any.
    public let activityCountsURL: URL?
    /// How fast the files are replayed.
    public let pace: ReplayPace
    /// The accelerometer unit the caller states, or nil to take the file's word (else detect it).
    public let accelerometerUnit: AccelerationUnit?
    /// The time zone of sensor timestamps written without one (`2026-12-01 23:00:00`), or nil to reject them.
    public let sensorTimeZone: TimeZone?

    /// The end of the recording when its header says it: the audio's end for an audio file without sensor files
    /// (sensor rows may run past the audio), nil otherwise.
    package var knownRecordingEnd: Date? {
        guard accelerometerURL == nil, heartRateURL == nil, activityCountsURL == nil, let audioDuration else {
            return nil
        }
        return startTime.addingTimeInterval(audioDuration)
    }

    private let lifecycle = SourceLifecycle()
    private let pacingClock: any MonotonicClock

    /// The start time and each file's name, length and digest.
    public var fingerprint: DataSourceFingerprint? {
        let files: [(String, URL?)] = [
            ("audio", audioURL), ("accelerometer", accelerometerURL), ("heartRate", heartRateURL),
            ("activityCounts", activityCountsURL),
        ]
        var inputs: [String: String] = [:]
        for (name, url) in files { if let url { inputs[name] = DataSourceFingerprint.identity(of: url) } }
        return DataSourceFingerprint(kind: "file", startTime: startTime, inputs: inputs)
    }

    /// Creates a replay of the given files; nothing is opened until `start(delivering:)`, which reports bad input.
    ///
    /// - Parameters:
    ///   - audio: An audio file (WAV, FLAC, OGG, … mono or stereo, any rate), or nil for a sensor-only replay.
    ///   - accelerometer: An accelerometer CSV file (`timestamp,x,y,z`), or nil.
    ///   - heartRate: A heart-rate CSV file (`timestamp,bpm`), or nil.
    ///   - activityCounts: An actigraphy CSV file (`timestamp,activity_count`), or nil.
    ///   - startTime: When the recording began; nil means now (the moment of this call).
    ///   - pace: How fast to replay; timestamps are the same at every pace.
    ///   - accelerometerUnit: The accelerometer file's unit when the file does not say; a file that says
    ///     otherwise is rejected at start.
    ///   - sensorTimeZone: The time zone of CSV timestamps written without one (local times), or nil to reject
    ///     them.
    public convenience init(
        audio: URL?, accelerometer: URL?, heartRate: URL? = nil, activityCounts: URL? = nil,
        startTime: Date? = nil, pace: ReplayPace = .asFastAsPossible,
        accelerometerUnit: AccelerationUnit? = nil, sensorTimeZone: TimeZone? = nil
    ) {
        self.init(
            audio: audio, accelerometer: accelerometer, heartRate: heartRate, activityCounts: activityCounts,
            startTime: startTime, pace: pace, accelerometerUnit: accelerometerUnit, sensorTimeZone: sensorTimeZone,
            pacingClock: SystemMonotonicClock())
    }

    /// Creates a replay of the given files whose pace is kept on `pacingClock`; nothing is opened until
    /// `start(delivering:)`.
    ///
    /// - Parameters:
    ///   - audio: An audio file, or nil for a sensor-only replay.
    ///   - accelerometer: An accelerometer CSV file, or nil.
    ///   - heartRate: A heart-rate CSV file, or nil.
    ///   - activityCounts: An actigraphy CSV file, or nil.
    ///   - startTime: When the recording began; nil means now.
    ///   - pace: How fast to replay.
    ///   - accelerometerUnit: The accelerometer file's unit when the file does not say.
    ///   - sensorTimeZone: The time zone of CSV timestamps written without one, or nil to reject them.
    ///   - pacingClock: The monotonic clock a paced replay waits on (tests pass a manual one).
    package init(
        audio: URL?, accelerometer: URL?, heartRate: URL? = nil, activityCounts: URL? = nil,
        startTime: Date? = nil, pace: ReplayPace = .asFastAsPossible,
        accelerometerUnit: AccelerationUnit? = nil, sensorTimeZone: TimeZone? = nil, pacingClock: any MonotonicClock
    ) {
        self.pacingClock = pacingClock
        self.audioURL = audio
        self.accelerometerURL = accelerometer
        self.heartRateURL = heartRate
        self.activityCountsURL = activityCounts
        self.startTime = startTime ?? Date()
        self.pace = pace
        self.accelerometerUnit = accelerometerUnit
        self.sensorTimeZone = sensorTimeZone
        let probe = audio.flatMap { try? AudioFileReader(url: $0) }
        self.channelCount = probe?.channelCount ?? 0
        self.audioDuration = probe.map { Double($0.frameCount) / $0.sampleRate }
        self.audioSampleRate = probe?.sampleRate
    }

    /// Opens the files, checks them, and starts replaying to `sink` on a thread of its own; returns at once.
    /// A source that has finished may be started again: it replays from the beginning.
    ///
    /// - Parameter sink: Where the data goes, in time order.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` without any file or with a bad pace,
    ///   `.invalidInput` for a missing, unreadable, unknown-format or truncated audio file or a missing or
    ///   malformed CSV file (header or first row), `.analysisAlreadyRunning` while it is running.
    public func start(delivering sink: any SensorDataSink) throws {
        guard audioURL != nil || accelerometerURL != nil || heartRateURL != nil || activityCountsURL != nil else {
            throw SleepCycleSdkError.invalidConfiguration("a file data source needs an audio or a sensor file")
        }
        let pacer = try ReplayPacer(pace: pace, clock: pacingClock)
        try lifecycle.begin()
        let job: FileReplayJob
        do {
            let audio = try audioURL.map { try AudioFileReader(url: $0) }
            let sensors: SensorFileStreams
            do {
                sensors = try SensorFileStreams(
                    accelerometer: accelerometerURL, heartRate: heartRateURL, activityCounts: activityCountsURL,
                    startTime: startTime, accelerometerUnit: accelerometerUnit, localZone: sensorTimeZone)
            } catch {
                throw error.sdkError
            }
            job = FileReplayJob(
                audio: audio, sensors: sensors, startTime: startTime, pacer: pacer,
                lifecycle: lifecycle, sink: sink)
        } catch {
            lifecycle.abandonStart()
            throw error
        }
        let thread = Thread { LibraryThreads.run(as: .fileReplay) { job.run() } }
        thread.name = "SleepAnalysis.FileDataSource"
        thread.start()
    }

    /// Stops the replay promptly (a paced wait is cut short); the sink then gets `finish(error: nil)`. At most the
    /// piece of data already being delivered arrives after this returns.
    public func stop() {
        lifecycle.requestStop()
    }

    /// Returns when the replay has ended (input exhausted, failed or stopped) and the sink has been finished; at
    /// once when the replay is not running (never started, its start failed, or it ended already).
    ///
    /// Cancelling the waiting task stops the replay, as `stop()` does, and the wait returns within a chunk's
    /// delivery, once the sink has been finished. An analysis on this source then ends with `CancellationError`
    /// in the cancelled task (`SleepAnalyzer.stopAnalysis(at:)`), its session resumable.
    public func waitUntilFinished() async {
        await lifecycle.waitUntilFinished()
    }
}

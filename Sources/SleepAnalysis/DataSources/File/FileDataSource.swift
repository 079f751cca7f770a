import Foundation
import Synchronization

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
    /// The audio file's length in seconds, as its header says, or nil without a readable audio file or when the
    /// header does not say (a FLAC stream written to a pipe). The replay reads to the real end of the audio.
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

    /// What each replay has read of the files so far.
    private let content = ContentTally()
    private let lengthDisagreement = Mutex<(declared: Int64, read: Int64)?>(nil)

    /// After the replay read the whole audio file: the frames its header gave and the frames it held, when they
    /// differ (nil otherwise, and before the end).
    package var audioLengthDisagreement: (declared: Int64, read: Int64)? {
        lengthDisagreement.withLock { $0 }
    }

    /// The start time, the options that change how the files are read, each file's name and what has been read of
    /// each so far (its length and digest: decoded frames of the audio, bytes of a CSV file).
    public var fingerprint: DataSourceFingerprint? {
        var inputs: [String: String] = [:]
        for (name, url) in files { inputs[name] = url.lastPathComponent }
        var options: [String: String] = [:]
        if let sensorTimeZone { options["sensorTimeZone"] = sensorTimeZone.identifier }
        if let accelerometerUnit { options["accelerometerUnit"] = accelerometerUnit.rawValue }
        let contents = content.snapshot.mapValues {
            DataSourceFingerprint.InputContent(length: $0.length, unit: $0.unit, digest: $0.digest)
        }
        return DataSourceFingerprint(
            kind: "file", startTime: startTime, inputs: inputs, options: options, contents: contents)
    }

    /// The files by input name.
    private var files: [(name: String, url: URL)] {
        let all: [(String, URL?)] = [
            ("audio", audioURL), ("accelerometer", accelerometerURL), ("heartRate", heartRateURL),
            ("activityCounts", activityCountsURL),
        ]
        return all.compactMap { name, url in url.map { (name, $0) } }
    }

    /// What differs between the content journaled (`contents`, of the files then named `names`) and these files:
    /// one phrase per input whose first `length` frames or bytes are not those journaled; empty when every journaled
    /// prefix is found again. Reads (and decodes) that much of each file.
    package func contentDifferences(
        from contents: [String: DataSourceFingerprint.InputContent], names: [String: String]
    ) -> [String] {
        var found: [String] = []
        for (name, url) in files {
            guard let journaled = contents[name], journaled.length > 0 else { continue }
            let was =
                "the \(name) input was \(DataSourceFingerprint.quoted(names[name] ?? "?")) "
                + "(its first \(journaled.length) \(journaled.unit) analysed)"
            let now = "now \(DataSourceFingerprint.quoted(url.lastPathComponent))"
            switch Self.prefix(of: url, name: name, length: journaled.length) {
            case .failure(let error):
                found.append("\(was), \(now) cannot be read (\(error))")
            case .success(let prefix) where prefix.length < journaled.length:
                found.append("\(was), \(now) holds only \(prefix.length) \(journaled.unit)")
            case .success(let prefix) where prefix.digest != journaled.digest:
                found.append("\(was), \(now) differs within them (other content)")
            case .success:
                continue
            }
        }
        return found
    }

    /// The length (up to `length`) and digest of the start of a file, as a replay digests it.
    private static func prefix(
        of url: URL, name: String, length: Int64
    ) -> Result<(length: Int64, digest: String), SleepCycleSdkError> {
        do {
            if name == "audio" {
                let reader = try AudioFileReader(url: url)
                reader.digestsContent = true
                while reader.framesRead < length,
                    try reader.read(maxFrames: Int(min(16_384, length - reader.framesRead))) != nil
                {}
                return .success((reader.framesRead, reader.content.hex))
            }
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            var digest = ContentDigest()
            while digest.byteCount < UInt64(length),
                let block = try handle.read(upToCount: Int(min(1 << 20, UInt64(length) - digest.byteCount))),
                !block.isEmpty
            {
                block.withUnsafeBytes { digest.update($0) }
            }
            return .success((Int64(digest.byteCount), digest.hex))
        } catch let error as SleepCycleSdkError {
            return .failure(error)
        } catch {
            return .failure(.invalidInput("\(MessageText.path(url)): \(error.localizedDescription)"))
        }
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
        self.audioDuration = probe.flatMap { probe in probe.knownFrameCount.map { Double($0) / probe.sampleRate } }
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
            if let audio, !AudioFileReader.analysableSampleRates.contains(audio.sampleRate) {
                let rates = AudioFileReader.analysableSampleRates
                throw SleepCycleSdkError.invalidInput(
                    "\(MessageText.path(audio.url)): sample rate \(Int(audio.sampleRate)) Hz is outside the "
                        + "\(Int(rates.lowerBound / 1_000)) kHz ... \(Int(rates.upperBound / 1_000)) kHz a night is "
                        + "analysed at (16 kHz or more is best; 4 to 16 kHz is analysed with a warning)")
            }
            let sensors: SensorFileStreams
            do {
                sensors = try SensorFileStreams(
                    accelerometer: accelerometerURL, heartRate: heartRateURL, activityCounts: activityCountsURL,
                    startTime: startTime, accelerometerUnit: accelerometerUnit, localZone: sensorTimeZone)
            } catch {
                throw error.sdkError
            }
            content.reset()
            lengthDisagreement.withLock { $0 = nil }
            job = FileReplayJob(
                audio: audio, sensors: sensors, startTime: startTime, pacer: pacer,
                lifecycle: lifecycle, sink: sink, content: content
            ) { [weak self] found in self?.lengthDisagreement.withLock { $0 = found } }
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

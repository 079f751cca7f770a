import Foundation

extension SleepAnalyzer {
    // MARK: - Data sources

    /// Creates a live source capturing from an ALSA device (mono or stereo, any rate the card offers; resampled
    /// for analysis). Nothing is opened until a session starts on it; device errors surface then.
    ///
    /// - Parameter device: The ALSA device name (`default`, `hw:1,0`, `plughw:CARD=Mic`, …).
    /// - Returns: The source, to pass to `startAnalysis(using:)` or `startDataSource(using:)`.
    public nonisolated func createLiveDataSource(device: String = "default") -> any DataSource {
        LiveDataSource(device: device)
    }

    /// Creates a source that replays a recorded night: an audio file (anything libsndfile reads, mono or
    /// stereo, any rate) and/or sensor CSV files. It ends when its input ends: `await source.waitUntilFinished()`
    /// returns then, and `stopAnalysis()` after that returns the whole night's result. Bad files are reported
    /// when a session starts on it (or, for a malformed row later in a file, through `dataSourceError`).
    ///
    /// - Parameters:
    ///   - audio: The audio file, or nil.
    ///   - accelerometer: An accelerometer CSV (`timestamp,x,y,z`; seconds or ISO 8601; g or m/s²), or nil.
    ///   - heartRate: A heart-rate CSV (`timestamp,bpm`), or nil.
    ///   - activityCounts: An epoch actigraphy CSV (`timestamp,activity_count`), or nil.
    ///   - startTime: When the recording began (nil: now); relative CSV timestamps count from it.
    ///   - pace: How fast to replay; results are the same at every pace.
    ///   - sensorTimeZone: The time zone of CSV timestamps written without one, or nil to reject them.
    /// - Returns: The source, to pass to `startAnalysis(using:)` or `startDataSource(using:)`.
    public nonisolated func createFileDataSource(
        audio: URL?, accelerometer: URL?, heartRate: URL? = nil, activityCounts: URL? = nil, startTime: Date? = nil,
        pace: ReplayPace = .asFastAsPossible, sensorTimeZone: TimeZone? = nil
    ) -> any DataSource {
        FileDataSource(
            audio: audio, accelerometer: accelerometer, heartRate: heartRate, activityCounts: activityCounts,
            startTime: startTime, pace: pace, sensorTimeZone: sensorTimeZone)
    }

    /// Creates a listener that records clips around events of the configured types and hands them to `receiver`.
    ///
    /// Pass the listener to `startAnalysis(eventListeners:)`. The receiver is called on the analysis thread, so it
    /// is `sending`: the compiler accepts a receiver the caller hands over and does not touch again, or one that is
    /// `Sendable`; a non-`Sendable` receiver the caller keeps using is rejected.
    ///
    /// - Parameters:
    ///   - audioClipsConfig: The event types that produce clips, their minimum durations, and the clip length.
    ///   - receiver: Where the clips go; called on the analysis thread.
    /// - Returns: The listener to pass in `eventListeners:`, which the caller owns until it sends it there.
    public nonisolated func createAudioClipsProducer(
        audioClipsConfig: AudioClipsConfig, receiver: sending any AudioClipsReceiver
    ) -> sending any AudioEventListener {
        AudioClipsProducer(config: audioClipsConfig, receiver: receiver)
    }
}

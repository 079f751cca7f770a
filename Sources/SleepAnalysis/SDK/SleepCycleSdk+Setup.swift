import Foundation

extension SleepCycleSdk {
    // MARK: - Set-up and life cycle

    /// Verifies the API key (a signed licence), readies the models its features need, and opens the session
    /// journal (`SleepAnalyzer.initialize(logLevel:logger:apiKey:forceTokenRefresh:telemetry:onDownloadProgress:storageDirectory:trustedIssuerKeys:)`).
    ///
    /// - Parameters:
    ///   - logLevel: The lowest level logged.
    ///   - logger: Where log messages go; nil means standard error.
    ///   - apiKey: The licence key (`sa1.<payload>.<signature>`), or `License.developmentKey()` to try the library
    ///     out.
    ///   - forceTokenRefresh: Discard the key's licence cache entry and record it afresh. The key's signature is
    ///     verified on every `initialize` either way, and nothing cached is trusted, so this never changes what is
    ///     granted.
    ///   - telemetry: What telemetry is recorded, and where (default: errors only, to a local spool file).
    ///   - onDownloadProgress: Model download progress 0...1 (slim mode only), from a background thread.
    ///   - storageDirectory: Where state and data go instead of the XDG directories (for services and tests).
    ///   - trustedIssuerKeys: Extra trusted issuer public keys (base64), beside the built-in ones and
    ///     `SLEEPANALYSIS_TRUSTED_KEYS`.
    /// - Returns: The features the licence grants.
    /// - Throws: `.invalidApiKey`, `.invalidConfiguration`, `.analysisAlreadyRunning` while a data source runs, the
    ///   model errors, `.storageFailure` (also when another analyzer uses the storage directory).
    @discardableResult
    public static func initialize(
        logLevel: LogLevel = .info, logger: (any SleepAnalysisLogHandler)? = nil, apiKey: String,
        forceTokenRefresh: Bool = false, telemetry: TelemetryConfig = TelemetryConfig(),
        onDownloadProgress: (@Sendable (Double) -> Void)? = nil, storageDirectory: URL? = nil,
        trustedIssuerKeys: [String] = []
    ) async throws -> SleepAnalysisFeatures {
        try await analyzer.initialize(
            logLevel: logLevel, logger: logger, apiKey: apiKey, forceTokenRefresh: forceTokenRefresh,
            telemetry: telemetry, onDownloadProgress: onDownloadProgress, storageDirectory: storageDirectory,
            trustedIssuerKeys: trustedIssuerKeys)
    }

    /// Stops the data source and returns to `.uninitialized`. Active sessions are not finalized: they stay in the
    /// journal and can be resumed after the next `initialize`.
    public static func deinitialize() async {
        await analyzer.deinitialize()
    }

    /// Deinitializes, then deletes the licence cache (the record of verified keys) and the downloaded models.
    public static func clear() async {
        await analyzer.clear()
    }

    // MARK: - Data sources

    /// Creates a live source capturing from an ALSA device (`SleepAnalyzer.createLiveDataSource(device:)`).
    ///
    /// - Parameter device: The ALSA device name (`default`, `hw:1,0`, `plughw:CARD=Mic`, …).
    /// - Returns: The source, to pass to `startAnalysis(using:)` or `startDataSource(using:)`.
    public static func createLiveDataSource(device: String = "default") -> any DataSource {
        analyzer.createLiveDataSource(device: device)
    }

    /// Creates a source that replays a recorded night
    /// (`SleepAnalyzer.createFileDataSource(audio:accelerometer:heartRate:activityCounts:startTime:pace:sensorTimeZone:)`).
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
    public static func createFileDataSource(
        audio: URL?, accelerometer: URL?, heartRate: URL? = nil, activityCounts: URL? = nil, startTime: Date? = nil,
        pace: ReplayPace = .asFastAsPossible, sensorTimeZone: TimeZone? = nil
    ) -> any DataSource {
        analyzer.createFileDataSource(
            audio: audio, accelerometer: accelerometer, heartRate: heartRate, activityCounts: activityCounts,
            startTime: startTime, pace: pace, sensorTimeZone: sensorTimeZone)
    }

    /// Creates a listener that records clips around events of the configured types and hands them to `receiver`.
    ///
    /// - Parameters:
    ///   - audioClipsConfig: The event types that produce clips, their minimum durations, and the clip length.
    ///   - receiver: Where the clips go; called on the analysis thread, hence `sending` (handed over, or
    ///     `Sendable`).
    /// - Returns: The listener to pass in `eventListeners:`.
    public static func createAudioClipsProducer(
        audioClipsConfig: AudioClipsConfig, receiver: sending any AudioClipsReceiver
    ) -> sending any AudioEventListener {
        analyzer.createAudioClipsProducer(audioClipsConfig: audioClipsConfig, receiver: receiver)
    }
}

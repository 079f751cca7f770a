import Foundation

/// Captures audio live from an ALSA device, mono or stereo, at a rate the card offers.
///
/// Nothing is opened until `start(delivering:)`, which opens the device, negotiates the format (S16_LE, S32_LE
/// or FLOAT_LE; stereo when offered unless a channel count is asked for; 16000, 48000 or 44100 Hz when offered,
/// else the rate nearest 48000) and throws if that fails. Capture then runs on a thread of the source's own and
/// delivers `AudioChunk`s of about 100 ms at the device's rate and channels. Timestamps come from the frame
/// count: frame `n` was captured at `startTime + n / sampleRate`, where `startTime` is the moment capture
/// started. An overrun is recovered (`snd_pcm_recover`) and capture goes on (the overrun's audio is lost and
/// not counted); a device that vanishes ends the source with `sink.finish(error: .dataSourceFailure(…))`.
public final class LiveDataSource: DataSource {
    /// The ALSA PCM name (`default`, `hw:1,0`, `plughw:CARD=Mic`, …).
    public let device: String

    /// The capture device.
    public var fingerprint: DataSourceFingerprint? {
        DataSourceFingerprint(kind: "live", startTime: nil, inputs: ["device": device])
    }
    /// The channel count asked for (1 or 2), or nil for stereo when the device offers it, else mono.
    public let preferredChannelCount: Int?
    /// The longest capture, in seconds, or nil to capture until stopped.
    public let maximumDuration: TimeInterval?

    private let alsaDevice: ALSADevice
    private let frameLimit: Int64?
    private let stallSeconds: Double
    private let alsa: ALSAFunctions
    private let lifecycle = SourceLifecycle()
    private let negotiated: DataSourceLock<(startTime: Date, channelCount: Int, sampleRate: Double?)>

    /// Creates a capture from `device`; errors (no such device, no usable format) surface at `start`.
    ///
    /// - Parameters:
    ///   - device: The ALSA PCM name.
    ///   - preferredChannelCount: 1 or 2 to insist on, or nil for stereo when offered, else mono.
    ///   - maximumDuration: Seconds after which capture ends by itself (as for `record --duration`), or nil.
    public init(device: String = "default", preferredChannelCount: Int? = nil, maximumDuration: TimeInterval? = nil) {
        self.device = device
        self.preferredChannelCount = preferredChannelCount
        self.maximumDuration = maximumDuration
        alsaDevice = .named(device)
        frameLimit = nil
        stallSeconds = LiveCaptureJob.defaultStallSeconds
        alsa = .system
        negotiated = DataSourceLock((Date(), preferredChannelCount ?? 2, nil))
    }

    /// Creates a capture from a PCM defined in `configuration` (ALSA configuration text loaded in memory instead
    /// of the system's), reading at most `frameLimit` frames: for tests through the `file` plugin, whose input
    /// repeats stale data past its end.
    ///
    /// - Parameters:
    ///   - configuration: ALSA configuration text defining `pcmName`.
    ///   - pcmName: The PCM to open.
    ///   - channelCount: 1 or 2.
    ///   - frameLimit: Frames after which capture ends by itself, or nil.
    ///   - stallSeconds: How long without audio before the device counts as stalled (a failure).
    ///   - alsa: The ALSA functions to call (tests may substitute some).
    init(
        configuration: String, pcmName: String, channelCount: Int, frameLimit: Int64?,
        stallSeconds: Double = LiveCaptureJob.defaultStallSeconds, alsa: ALSAFunctions = .system
    ) {
        device = pcmName
        preferredChannelCount = channelCount
        maximumDuration = nil
        alsaDevice = .configuration(text: configuration, pcmName: pcmName)
        self.frameLimit = frameLimit
        self.stallSeconds = stallSeconds
        self.alsa = alsa
        negotiated = DataSourceLock((Date(), channelCount, nil))
    }

    /// When capture started (the moment `start` opened the device; the creation time before that).
    public var startTime: Date { negotiated.withLock { $0.startTime } }
    /// The negotiated channel count after `start`; before it, the count asked for (2 when none was).
    public var channelCount: Int { negotiated.withLock { $0.channelCount } }
    /// The negotiated sample rate after `start`, nil before.
    public var sampleRate: Double? { negotiated.withLock { $0.sampleRate } }
    /// True when capture ends by itself (a maximum duration or frame limit), false when it runs until stopped.
    public var isFinite: Bool { frameLimit != nil || maximumDuration != nil }

    /// Opens the device, negotiates the format and starts capturing to `sink` on a thread of its own; returns at
    /// once. A source that has finished may be started again.
    ///
    /// - Parameter sink: Where the captured audio goes.
    /// - Throws: `SleepCycleSdkError.dataSourceFailure` when the device cannot be opened or offers no usable
    ///   format, `.invalidConfiguration` for a channel count other than 1 or 2 or a non-positive duration,
    ///   `.analysisAlreadyRunning` while it is running.
    public func start(delivering sink: any SensorDataSink) throws {
        if let channels = preferredChannelCount, channels != 1, channels != 2 {
            throw SleepCycleSdkError.invalidConfiguration("a live source captures 1 or 2 channels, not \(channels)")
        }
        if let duration = maximumDuration, !(duration.isFinite && duration > 0) {
            throw SleepCycleSdkError.invalidConfiguration("the capture duration must be positive, not \(duration)")
        }
        try lifecycle.begin()
        let capture: ALSACapture
        do {
            capture = try ALSACapture(device: alsaDevice, channelCount: preferredChannelCount, alsa: alsa)
        } catch {
            lifecycle.abandonStart()
            throw error.sdkError
        }
        let limit = frameLimit ?? maximumDuration.map { Int64(($0 * Double(capture.sampleRate)).rounded()) }
        negotiated.withLock { $0 = (Date(), capture.channelCount, Double(capture.sampleRate)) }
        let job = LiveCaptureJob(
            capture: capture, frameLimit: limit, stallSeconds: stallSeconds, lifecycle: lifecycle, sink: sink)
        let thread = Thread { LibraryThreads.run(as: .liveCapture) { job.run() } }
        thread.name = "SleepAnalysis.LiveDataSource"
        thread.start()
    }

    /// Stops capturing within about 100 ms; the device is closed and the sink gets `finish(error: nil)`.
    public func stop() {
        lifecycle.requestStop()
    }

    /// Returns when capture has ended (stopped, limit reached or failed), the device is closed and the sink has
    /// been finished; at once when capture is not running (never started, its start failed, or it ended already).
    ///
    /// Cancelling the waiting task stops capture, as `stop()` does, and the wait returns within about 100 ms, once
    /// the device is closed and the sink finished.
    public func waitUntilFinished() async {
        await lifecycle.waitUntilFinished()
    }
}

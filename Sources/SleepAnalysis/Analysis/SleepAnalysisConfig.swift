import Foundation

/// Which sensors a session uses, and how its microphone's levels map to sound pressure.
///
/// ```swift
/// // A microphone that reads -30 dBFS at 94 dB SPL: levels in dB(A) SPL.
/// let config = SleepAnalysisConfig(
///     useAudio: true, soundLevelCalibration: LevelCalibration(microphoneSensitivityDbfs: -30))
/// ```
public struct SleepAnalysisConfig: Sendable, Hashable, Codable {
    /// Analyse the microphone.
    public var useAudio: Bool
    /// Analyse the accelerometer.
    public var useAccelerometer: Bool
    /// Analyse heart rate from a wearable.
    public var useHeartRate: Bool
    /// The microphone's calibration, when it is known: the sound levels listeners receive
    /// (`AudioEventListener.onAudioAnalysisBatchCompleted`'s `dbSpl`) are then A-weighted sound pressure levels,
    /// dB(A) SPL. Nil (the default): they are relative levels, dBFS plus `LevelCalibration.default`'s offset, which
    /// compare within a night but are not sound pressure levels. The analysis itself (events, staging) is the same
    /// either way.
    public var soundLevelCalibration: LevelCalibration?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - useAudio: Analyse the microphone.
    ///   - useAccelerometer: Analyse the accelerometer.
    ///   - useHeartRate: Analyse heart rate from a wearable.
    ///   - soundLevelCalibration: The microphone's calibration, when known; nil for relative levels.
    public init(
        useAudio: Bool = true, useAccelerometer: Bool = false, useHeartRate: Bool = false,
        soundLevelCalibration: LevelCalibration? = nil
    ) {
        self.useAudio = useAudio
        self.useAccelerometer = useAccelerometer
        self.useHeartRate = useHeartRate
        self.soundLevelCalibration = soundLevelCalibration
    }
}

/// A channel of a stereo source: one sleeper each.
public enum AnalysisChannel: String, Sendable, Hashable, Codable, CaseIterable {
    /// The first audio channel (or the only one of a mono source).
    case primary
    /// The second audio channel of a stereo source.
    case secondary
}

/// A session that can be resumed after the host process restarted.
public struct ResumedSession: Sendable, Hashable, Codable {
    /// The session.
    public var sessionId: UUID
    /// Its channel.
    public var channel: AnalysisChannel
    /// The smart alarm persisted with it, if any.
    public var smartAlarmConfig: SmartAlarmConfig?

    /// Creates a resumed-session record.
    ///
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - channel: Its channel.
    ///   - smartAlarmConfig: The smart alarm persisted with it, if any.
    public init(sessionId: UUID, channel: AnalysisChannel, smartAlarmConfig: SmartAlarmConfig?) {
        self.sessionId = sessionId
        self.channel = channel
        self.smartAlarmConfig = smartAlarmConfig
    }
}

/// The SDK's life-cycle state.
public enum SleepCycleSdkState: String, Sendable, Hashable, Codable {
    /// `initialize(...)` has not been called (or `deinitialize()` was).
    case uninitialized
    /// Ready; no data source runs.
    case initialized
    /// A data source and at least one session run.
    case running
}

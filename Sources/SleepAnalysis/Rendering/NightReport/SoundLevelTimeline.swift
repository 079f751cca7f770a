import Foundation

/// A night's A-weighted sound level as one equivalent level (Leq, the energy mean of the analysis frames, as a
/// sound level meter averages) per minute, from the levels the analysis measures (`SoundLevelCollector`).
///
/// Without a `calibration` the levels are relative: dBFS plus the default offset of `LevelCalibration`, a guess at
/// the microphone, so a page compares the minutes with each other and never calls them sound pressure levels. With
/// one (`SleepAnalysisConfig.soundLevelCalibration`) they are A-weighted sound pressure levels, dB(A) SPL.
public struct SoundLevelTimeline: Sendable, Hashable {
    /// One minute's level.
    public struct Minute: Sendable, Hashable {
        /// The minute's start (a whole minute of the clock).
        public var start: Date
        /// Its Leq, dB (A-weighted; sound pressure level when the timeline has a calibration).
        public var leq: Double
        /// How many analysis frames it averages.
        public var frameCount: Int

        /// Creates a minute.
        ///
        /// - Parameters:
        ///   - start: The minute's start.
        ///   - leq: Its Leq, dB SPL (A-weighted).
        ///   - frameCount: How many analysis frames it averages.
        public init(start: Date, leq: Double, frameCount: Int) {
            self.start = start
            self.leq = leq
            self.frameCount = frameCount
        }
    }

    /// The measured minutes, in time order (a minute without audio is absent).
    public var minutes: [Minute]
    /// How the levels map to sound pressure, when the microphone was calibrated; nil: the levels are relative.
    public var calibration: LevelCalibration?

    /// Creates a timeline.
    ///
    /// - Parameters:
    ///   - minutes: The measured minutes, in time order.
    ///   - calibration: The microphone's calibration, which the levels are in; nil when they are relative.
    public init(minutes: [Minute], calibration: LevelCalibration? = nil) {
        self.minutes = minutes
        self.calibration = calibration
    }

    /// The Leq of every measured frame together, dB SPL; nil when nothing was measured.
    public var leq: Double? {
        let frames = minutes.reduce(0) { $0 + $1.frameCount }
        guard frames > 0 else { return nil }
        let energy = minutes.reduce(0) { $0 + pow(10, $1.leq / 10) * Double($1.frameCount) }
        return 10 * log10(energy / Double(frames))
    }
}

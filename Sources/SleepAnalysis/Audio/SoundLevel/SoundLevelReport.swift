import Foundation

/// The A-weighted sound level of a recording: per frame, and as Leq, minimum and maximum (dB SPL).
public struct SoundLevelReport: Sendable, Hashable, Codable {
    /// Equivalent continuous A-weighted level of the whole recording (energy mean of the frames), dB SPL.
    public var leq: Double
    /// Quietest frame, dB SPL (A-weighted).
    public var min: Double
    /// Loudest frame, dB SPL (A-weighted).
    public var max: Double
    /// A-weighted level of each frame, dB SPL; frame `i` ends at `(i + 1) · frameDuration` s (the last frame may
    /// end earlier, at the end of the recording).
    public var frames: [Double]
    /// Time between frame ends (s).
    public var frameDuration: Double
    /// Analysis window per frame (s): each frame's level is that of a Hann window this long ending at the frame.
    public var windowDuration: Double
    /// The recording's sample rate (Hz).
    public var sampleRate: Double
    /// The recording's channels; with two, each frame is the energy mean of both channels.
    public var channelCount: Int
    /// The recording's length (s).
    public var duration: Double
    /// The calibration used: dB SPL = dBFS + this.
    public var calibrationOffsetDb: Double
    /// Samples that were NaN or infinite and were measured as silence (0 for a clean recording).
    public var repairedSampleCount = 0
    /// Samples cut off at full scale (at least 0.99 in magnitude and equal to the one before on their channel): where
    /// the recording clipped, its levels read low (0 for a clean recording).
    public var clippedSampleCount = 0
}

import Foundation

/// Where one stereo frame's sound came from: time and level difference between the two microphones.
struct StereoCues: Sendable, Hashable {
    /// Index of the frame since the stream began (frame `i` ends at sample `(i + 1) * hopSize`).
    var frameIndex: Int64
    /// Time difference of arrival (s); positive when the sound reaches the primary (left) channel first.
    var delaySeconds: Double
    /// Strength of the GCC-PHAT correlation peak, 0 (no common sound) ... 1 (one source, pure delay).
    var confidence: Double
    /// Primary level minus secondary level over the frame (dB).
    var levelDifferenceDb: Double
}

import Foundation

/// The front end's output for a run of analysis frames (16 kHz, 10 ms hop): what every audio engine reads.
///
/// Frame `i` of a block ends at sample `(firstFrameIndex + i + 1) * hopSize` of the analysis signal.
struct FeatureBlock: Sendable {
    /// Index of the first frame since the stream began.
    var firstFrameIndex: Int64
    /// Frames in the block.
    var frameCount: Int
    /// Mel bands per frame.
    var melBandCount: Int
    /// Natural-log mel band energies, frame-major: `logMel[frame * melBandCount + band]`.
    var logMel: [Float]
    /// A-weighted level per frame in dB SPL (calibrated).
    var dbSpl: [Float]
    /// Unweighted RMS per frame in dBFS.
    var dbfs: [Float]
}

import Foundation

/// The front end's output for a run of analysis frames (16 kHz, 10 ms hop): what every audio engine reads.
///
/// Frame `i` of a block ends at sample `(firstFrameIndex + i + 1) * hopSize` of the analysis signal.
package struct FeatureBlock: Sendable {
    /// Index of the first frame since the stream began.
    package var firstFrameIndex: Int64
    /// Frames in the block.
    package var frameCount: Int
    /// Mel bands per frame.
    package var melBandCount: Int
    /// Natural-log mel band energies, frame-major: `logMel[frame * melBandCount + band]`.
    package var logMel: [Float]
    /// A-weighted level per frame in dB SPL (calibrated).
    package var dbSpl: [Float]
    /// Unweighted RMS per frame in dBFS.
    package var dbfs: [Float]

    /// Creates a block.
    ///
    /// - Parameters:
    ///   - firstFrameIndex: Index of the first frame since the stream began.
    ///   - frameCount: Frames in the block.
    ///   - melBandCount: Mel bands per frame.
    ///   - logMel: Natural-log mel band energies, frame-major.
    ///   - dbSpl: A-weighted level per frame in dB SPL.
    ///   - dbfs: Unweighted RMS per frame in dBFS.
    package init(
        firstFrameIndex: Int64, frameCount: Int, melBandCount: Int, logMel: [Float], dbSpl: [Float], dbfs: [Float]
    ) {
        self.firstFrameIndex = firstFrameIndex
        self.frameCount = frameCount
        self.melBandCount = melBandCount
        self.logMel = logMel
        self.dbSpl = dbSpl
        self.dbfs = dbfs
    }
}

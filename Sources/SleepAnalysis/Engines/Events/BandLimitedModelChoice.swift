import Foundation

/// Decides once per stream whether its audio is band-limited (nothing above 4 kHz: recorded at 8 kHz, a
/// telephone-band headset, a codec), so that the events detector runs the model trained for such audio
/// (`Models/events-band-limited.bin`) instead of the full-band one.
///
/// The decision uses the front end's mel energies (`AudioBandwidthMonitor`'s upper band against its speech band)
/// over the first `decisionFrames` frames of sound at or above `judgedFrameMinimumDbfs`. Quieter frames are not
/// judged: in a 16-bit file the quantisation noise fills the upper band of band-limited audio to within 45 dB of
/// a quiet room's speech band, so the quiet start of a night would pass for full band. The decision is made once and
/// kept: a night does not flip between models.
struct BandLimitedModelChoice {
    /// Frames of sound (10 ms each) judged before deciding: 2 s.
    static let decisionFrames = 200
    /// Frames quieter than this (unweighted RMS, dBFS) are not judged.
    static let judgedFrameMinimumDbfs: Float = -50

    private var monitor: AudioBandwidthMonitor
    private var judgedFrames = 0
    private var loudFrames: [Float] = []
    /// The decision: nil until made, then whether the audio is band-limited.
    private(set) var isBandLimited: Bool?

    /// A choice for the standard front end's bands.
    init(configuration: FrontEndConfiguration = .standard) {
        monitor = AudioBandwidthMonitor(configuration: configuration)
    }

    /// Adds a block of frames; decides once enough sound was judged.
    ///
    /// - Parameter block: The next frames of the stream.
    /// - Returns: The decision, nil while undecided.
    mutating func add(_ block: FeatureBlock) -> Bool? {
        guard isBandLimited == nil else { return isBandLimited }
        let bands = block.melBandCount
        loudFrames.removeAll(keepingCapacity: true)
        for frame in 0..<min(block.frameCount, block.dbfs.count)
        where block.dbfs[frame] >= Self.judgedFrameMinimumDbfs && (frame + 1) * bands <= block.logMel.count {
            loudFrames.append(contentsOf: block.logMel[(frame * bands)..<((frame + 1) * bands)])
        }
        let loud = bands > 0 ? loudFrames.count / bands : 0
        guard loud > 0 else { return nil }
        monitor.add(logMel: loudFrames, bandCount: bands, frames: loud)
        judgedFrames += loud
        if judgedFrames >= Self.decisionFrames, monitor.upperToSpeechBandDb != nil {
            isBandLimited = monitor.isBandLimited
        }
        return isBandLimited
    }
}

import Foundation

/// Decides once per stream whether its audio is band-limited (nothing above 4 kHz: recorded at 8 kHz, a
/// telephone-band headset, a codec), so that the events detector runs the model trained for such audio
/// (`Models/events-band-limited.bin`) instead of the full-band one.
///
/// The decision uses the front end's mel energies (`AudioBandwidthMonitor`'s upper band against its speech band)
/// over the first `decisionFrames` frames, and waits past them while the audio is silent. It is made once and kept:
/// a night does not flip between models.
struct BandLimitedModelChoice {
    /// Frames of audio (10 ms each) judged before deciding: 5 s.
    static let decisionFrames = 500

    private var monitor: AudioBandwidthMonitor
    private var frames = 0
    /// The decision: nil until made, then whether the audio is band-limited.
    private(set) var isBandLimited: Bool?

    /// A choice for the standard front end's bands.
    init(configuration: FrontEndConfiguration = .standard) {
        monitor = AudioBandwidthMonitor(configuration: configuration)
    }

    /// Adds a block of frames; decides once enough sounding audio was seen.
    ///
    /// - Parameter block: The next frames of the stream.
    /// - Returns: The decision, nil while undecided.
    mutating func add(_ block: FeatureBlock) -> Bool? {
        guard isBandLimited == nil else { return isBandLimited }
        monitor.add(block)
        frames += block.frameCount
        if frames >= Self.decisionFrames, monitor.upperToSpeechBandDb != nil {
            isBandLimited = monitor.isBandLimited
        }
        return isBandLimited
    }
}

import Foundation

/// Tells whether a night's audio carries sound above 4 kHz, from the front end's mel energies: audio recorded
/// or resampled at 8 kHz and played at 16 kHz has an empty upper half, and the sound-event detectors, trained on
/// full-band audio, then miss most events.
package struct AudioBandwidthMonitor {
    /// Upper-band energy this far below the speech band's (in dB), over the whole night, marks band-limited audio.
    package static let bandLimitThresholdDb = -45.0
    /// Mean speech-band energy (per band and frame) below which the audio is taken to be silent and not judged.
    static let silenceEnergy = 1e-7

    private var speechBandEnergy = 0.0
    private var upperBandEnergy = 0.0
    private var frames = 0
    private let speechBands: Range<Int>
    private let upperBands: Range<Int>

    /// A monitor for the standard front end's bands.
    package init(configuration: FrontEndConfiguration = .standard) {
        let centres = Self.bandCentresHz(configuration)
        speechBands = Self.bands(centres, from: 300, to: 3_400)
        upperBands = Self.bands(centres, from: 4_500, to: 7_500)
    }

    /// Adds a block of frames.
    package mutating func add(_ block: FeatureBlock) {
        add(logMel: block.logMel, bandCount: block.melBandCount, frames: block.frameCount)
    }

    /// Adds `frames` frames of natural-log mel energies, frame-major with `bandCount` bands per frame.
    package mutating func add(logMel: [Float], bandCount: Int, frames: Int) {
        speechBandEnergy += DSPSampleChecks.bandEnergy(logMel, bandCount: bandCount, frames: frames, bands: speechBands)
        upperBandEnergy += DSPSampleChecks.bandEnergy(logMel, bandCount: bandCount, frames: frames, bands: upperBands)
        self.frames += frames
    }

    /// The upper band's mean energy relative to the speech band's, in dB; nil before any sound.
    package var upperToSpeechBandDb: Double? {
        guard frames > 0 else { return nil }
        let speech = speechBandEnergy / Double(frames * speechBands.count)
        guard speech > Self.silenceEnergy else { return nil }
        let upper = upperBandEnergy / Double(frames * upperBands.count)
        return 10 * log10(max(upper, 1e-30) / speech)
    }

    /// Whether the audio so far is band-limited (see `bandLimitThresholdDb`).
    package var isBandLimited: Bool {
        guard let ratio = upperToSpeechBandDb else { return false }
        return ratio < Self.bandLimitThresholdDb
    }

    /// The centre frequency of each mel band (Slaney's scale, as the front end builds it).
    private static func bandCentresHz(_ configuration: FrontEndConfiguration) -> [Double] {
        let low = mel(configuration.melLowHz)
        let high = mel(configuration.melHighHz)
        let step = (high - low) / Double(configuration.melBandCount + 1)
        return (0..<configuration.melBandCount).map { hertz(low + Double($0 + 1) * step) }
    }

    /// The bands whose centre lies in `lower...upper` Hz.
    private static func bands(_ centres: [Double], from lower: Double, to upper: Double) -> Range<Int> {
        let first = centres.firstIndex { $0 >= lower } ?? centres.count
        let end = centres.lastIndex { $0 <= upper }.map { $0 + 1 } ?? first
        return first..<max(first, end)
    }

    /// Slaney's mel scale: linear below 1 kHz, logarithmic above.
    private static func mel(_ hertz: Double) -> Double {
        hertz < 1_000 ? hertz * 3 / 200 : 15 + 27 * log(hertz / 1_000) / log(6.4)
    }

    /// The inverse of `mel`.
    private static func hertz(_ mel: Double) -> Double {
        mel < 15 ? mel * 200 / 3 : 1_000 * exp((mel - 15) * log(6.4) / 27)
    }
}

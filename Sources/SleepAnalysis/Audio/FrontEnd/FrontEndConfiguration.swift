import Foundation

/// The front end's frame and feature definition.
///
/// `standard`: 16 kHz input, 512-point FFT with a periodic Hann window over the last 512 samples (zeros before the
/// stream start), hop 160 samples (10 ms; frame `i` ends at sample `(i + 1) * 160`), 64 mel bands from 50 to
/// 8000 Hz on Slaney's mel scale with Slaney (area) normalisation — librosa's default `mel(htk=False,
/// norm="slaney")` — applied to the power spectrum `|X_k|²` of the windowed frame (samples in −1...1, FFT
/// unnormalised), natural log of band energy + 1e-10.
package struct FrontEndConfiguration: Sendable, Hashable {
    /// Input sample rate (Hz).
    var sampleRate: Double = 16_000
    /// FFT size and window length (samples).
    var fftSize = 512
    /// Samples between frame ends.
    var hopSize = 160
    /// Mel bands per frame.
    package var melBandCount = 64
    /// Lower edge of the first mel band (Hz).
    var melLowHz = 50.0
    /// Upper edge of the last mel band (Hz).
    var melHighHz = 8_000.0
    /// Added to each mel energy before the logarithm.
    var logFloor: Float = 1e-10
    /// dB SPL = dBFS + `calibration.offsetDb`.
    var calibration: LevelCalibration = .default

    /// The analysis definition every engine expects.
    package static let standard = FrontEndConfiguration()

    /// Duration of one hop (s).
    var frameDuration: Double { Double(hopSize) / sampleRate }
}

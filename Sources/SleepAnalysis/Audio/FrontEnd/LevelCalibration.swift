import Foundation

/// How digital levels map to sound pressure: dB SPL = dBFS + `offsetDb`.
///
/// dBFS follows the full-scale-sine convention: a sine that just reaches ±1 reads 0 dBFS, so a signal of RMS `r`
/// reads 20·log10(r·√2) dBFS. A microphone's sensitivity is the dBFS it reads at 94 dB SPL (1 Pa), hence
/// `offsetDb = 94 − sensitivity`.
public struct LevelCalibration: Sendable, Hashable, Codable {
    /// Added to a level in dBFS to give dB SPL.
    public var offsetDb: Double

    /// The level in dBFS that a 94 dB SPL tone reads (the microphone's sensitivity).
    public var microphoneSensitivityDbfs: Double { 94 - offsetDb }

    /// A calibration from an explicit offset: dB SPL = dBFS + `offsetDb`.
    ///
    /// - Parameter offsetDb: the offset in dB.
    public init(offsetDb: Double) {
        self.offsetDb = offsetDb
    }

    /// A calibration from a microphone's sensitivity.
    ///
    /// - Parameter microphoneSensitivityDbfs: the dBFS reading at 94 dB SPL (for example −26 for a typical MEMS
    ///   microphone).
    public init(microphoneSensitivityDbfs: Double) {
        self.offsetDb = 94 - microphoneSensitivityDbfs
    }

    /// A typical digital MEMS microphone: −26 dBFS at 94 dB SPL, so dB SPL = dBFS + 120.
    public static let typicalMemsMicrophone = LevelCalibration(microphoneSensitivityDbfs: -26)

    /// The default when nothing is known about the microphone: `typicalMemsMicrophone`.
    public static let `default` = typicalMemsMicrophone
}

import Foundation

/// Tuning of the audio health monitor.
public struct AudioHealthConfiguration: Sendable, Hashable {
    /// How long the signal must stay constant before `.flatline` is reported (seconds). The report carries the
    /// time the constant stretch began.
    public var flatlineSeconds: Double
    /// Peak-to-peak amplitude (in -1...1 units) at or below which a block counts as constant. The default, 2.5 LSB
    /// of 16-bit audio, catches digital silence, a stuck DC value and a muted converter's ±1 LSB dither, while a
    /// quiet room (-70 dBFS noise is about 60 LSB peak to peak) stays healthy.
    public var flatlinePeakToPeak: Double
    /// How long without samples before `.missingInput` is reported (seconds).
    public var missingInputTimeout: Double
    /// Length of the blocks tested for constancy (seconds).
    public var blockSeconds: Double

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - flatlineSeconds: Constant-signal time before `.flatline` (default 5 s).
    ///   - flatlinePeakToPeak: Constancy threshold (default 2.5 / 32768).
    ///   - missingInputTimeout: Time without samples before `.missingInput` (default 60 s).
    ///   - blockSeconds: Test block length (default 0.25 s).
    public init(
        flatlineSeconds: Double = 5, flatlinePeakToPeak: Double = 2.5 / 32_768,
        missingInputTimeout: Double = 60, blockSeconds: Double = 0.25
    ) {
        self.flatlineSeconds = flatlineSeconds
        self.flatlinePeakToPeak = flatlinePeakToPeak
        self.missingInputTimeout = missingInputTimeout
        self.blockSeconds = blockSeconds
    }

    /// Checks the values are usable.
    ///
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` naming the first bad value.
    func validate() throws {
        guard flatlineSeconds > 0, flatlineSeconds <= 30 else {
            throw SleepCycleSdkError.invalidConfiguration("audio health: flatlineSeconds must be in (0, 30]")
        }
        guard flatlinePeakToPeak >= 0, flatlinePeakToPeak < 0.01 else {
            throw SleepCycleSdkError.invalidConfiguration("audio health: flatlinePeakToPeak must be in [0, 0.01)")
        }
        guard missingInputTimeout > 0, missingInputTimeout.isFinite else {
            throw SleepCycleSdkError.invalidConfiguration("audio health: missingInputTimeout must be positive")
        }
        guard blockSeconds > 0, blockSeconds <= flatlineSeconds else {
            throw SleepCycleSdkError.invalidConfiguration("audio health: blockSeconds must be in (0, flatlineSeconds]")
        }
    }
}

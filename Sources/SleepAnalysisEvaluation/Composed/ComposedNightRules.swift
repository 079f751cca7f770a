import SleepAnalysis

/// The rules a composed night follows: per 30-second epoch, by its scored stage, the chance of each kind of
/// sound and of a body movement, and how loud the sounds are. Light is R&K stages 1 and 2 together, deep 3 and 4.
///
/// The direction of every rule comes from the sleep literature cited in `Models/staging.md` (movement mostly in
/// wake and at stage changes, rarest in deep sleep; snoring in NREM, rare in REM, never awake; talking in wake
/// and light sleep); **the numbers themselves are assumptions**, not measured rates.
package struct ComposedNightRules: Sendable {
    /// Chance per epoch of a body movement (heard as a movement sound and felt by the accelerometer).
    package var movement: [SleepStage: Double] = [.awake: 0.25, .light: 0.06, .deep: 0.01, .rem: 0.05]
    /// Chance of a movement in an epoch whose stage differs from the previous epoch's (if higher).
    package var movementAtTransition = 0.4
    /// Chance that snoring starts in an epoch when the previous one had none.
    package var snoringStart: [SleepStage: Double] = [.awake: 0, .light: 0.04, .deep: 0.1, .rem: 0.005]
    /// Chance that snoring goes on in an epoch when the previous one had it.
    package var snoringContinue: [SleepStage: Double] = [.awake: 0, .light: 0.85, .deep: 0.9, .rem: 0.3]
    /// Chance per epoch of a few spoken words (sleep talking stands in as awake speech clips).
    package var talking: [SleepStage: Double] = [.awake: 0.03, .light: 0.01, .deep: 0, .rem: 0]
    /// Chance per epoch of a cough.
    package var coughing: [SleepStage: Double] = [.awake: 0.02, .light: 0.002, .deep: 0, .rem: 0]
    /// RMS level (dBFS) each placed clip is scaled to, by manifest class.
    package var levelDbfs: [String: Double] = ["snoring": -30, "talking": -32, "coughing": -28, "movement": -32]
    /// RMS level (dBFS) of the quiet bedroom background.
    package var roomToneDbfs = -58.0
    /// Accelerometer (phone on the mattress): noise (g, standard deviation) at rest.
    package var restNoiseG = 0.001
    /// Accelerometer: breathing motion amplitude (g) at rest.
    package var breathingMotionG = 0.002
    /// Breathing rate (breaths per minute); snores come one per breath.
    package var breathsPerMinute = 15.0
    /// Accelerometer: a body movement's burst, standard deviation (g).
    package var movementBurstG = 0.08
    /// A body movement's length (s).
    package var movementSeconds = 3.0

    /// The published rules.
    package init() {}
}

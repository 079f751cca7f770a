import CommandLineKit
import Foundation
import SleepAnalysis

/// `--calibration-offset DB` (`spl`, `analyze`, `record`): the microphone's calibration, dB SPL = dBFS + DB.
enum CalibrationOffsetArgument {
    /// The option's name.
    static let option = "calibration-offset"

    /// The calibration given; nil when the option is absent.
    ///
    /// - Throws: `CommandLineError.usage` (exit 64) for a number outside 0...200 dB or not a number.
    static func calibration(_ parsed: ParsedArguments) throws -> LevelCalibration? {
        guard let offset = try parsed.option(option, as: Double.self) else { return nil }
        // Microphones read 94 dB SPL somewhere between about -80 and 0 dBFS: offsets far outside are typos.
        guard (0...200).contains(offset) else {
            throw CommandLineError.usage("--calibration-offset must be between 0 and 200 dB, not \(offset)")
        }
        return LevelCalibration(offsetDb: offset)
    }
}

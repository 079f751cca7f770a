import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis spl FILE [--calibration-offset DB] [--format json|text]`: A-weighted sound level per frame and
/// as Leq, min and max.
///
/// JSON output (one object, keys sorted): `leq`, `min`, `max` (dB SPL, A-weighted, whole file), `frames`
/// (A-weighted dB SPL per frame, 0.01 dB resolution), `frameDuration` and `windowDuration` (s), `sampleRate`,
/// `channelCount`, `duration` (s), `calibrationOffsetDb`, `repairedSampleCount` (NaN or infinite samples measured as
/// silence), `clippedSampleCount` (samples cut off at full scale, where the levels read low).
enum SplCommand: Command {
    static let name = "spl"
    static let summary = "A-weighted sound level of an audio file (per frame, Leq, min, max)"
    /// What it accepts: its specification.
    static var syntax: CommandSyntax { .options(specification) }
    static let specification = ArgumentSpecification(
        options: ["calibration-offset", "format"],
        shortNames: ["f": "format"],
        positionals: ["FILE"],
        usage: """
            usage: sleepanalysis spl FILE [--calibration-offset DB] [--format json|text]

                  FILE                      audio file (WAV, FLAC, OGG…; mono or stereo; any sample rate)
                  --calibration-offset DB   dB SPL = dBFS + DB (default 120: a -26 dBFS/94 dB SPL MEMS microphone)
              -f, --format json|text        output format (default text)

            """)

    static func run(_ arguments: [String]) async throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        let calibration = try CalibrationOffsetArgument.calibration(parsed) ?? .default
        let report = try SoundLevelAnalysis.analyze(
            file: URL(fileURLWithPath: parsed.positionals[0]), calibration: calibration)
        if format == "json" {
            try StandardOutput.print(try json(report))
        } else {
            try StandardOutput.print(text(report), terminator: "")
        }
    }

    /// The report as one JSON document (`SleepAnalysisJSON`, `Schemas/sound-level.schema.json`): the report's
    /// members, frames rounded to 0.01 dB, and `schemaVersion`.
    static func json(_ report: SoundLevelReport) throws -> String {
        var rounded = report
        rounded.frames = report.frames.map { ($0 * 100).rounded() / 100 }
        return String(decoding: try SleepAnalysisJSON.encode(Document(report: rounded)), as: UTF8.self)
    }

    /// A report with `schemaVersion`.
    private struct Document: Encodable {
        var report: SoundLevelReport

        private enum CodingKeys: String, CodingKey { case schemaVersion }

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(SleepAnalysisJSON.schemaVersion, forKey: .schemaVersion)
        }
    }

    /// The report as two lines for people, and a warning line for each kind of damage the recording has.
    static func text(_ report: SoundLevelReport) -> String {
        var warnings = ""
        // The same threshold as `analyze`'s clipping warning: a few samples at full scale are not worth a word.
        if report.clippedSampleCount >= ClippingMonitor.reportedFrom {
            warnings +=
                "warning: \(report.clippedSampleCount) sample(s) clipped at full scale; the levels read low there\n"
        }
        if report.repairedSampleCount > 0 {
            warnings += "warning: \(report.repairedSampleCount) NaN or infinite sample(s) measured as silence\n"
        }
        return """
            LAeq \(String(format: "%.1f", report.leq)) dB SPL   min \(String(format: "%.1f", report.min))   \
            max \(String(format: "%.1f", report.max))
            \(report.frames.count) frames of \(report.frameDuration) s over \(String(format: "%.1f", report.duration)) s \
            (\(Int(report.sampleRate)) Hz, \(report.channelCount) channel(s), calibration offset \
            \(report.calibrationOffsetDb) dB)

            """ + warnings
    }
}

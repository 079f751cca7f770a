import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis features events --list FILES.txt --out DIR`: exports the event classifier's window features of each
/// listed audio file (one path per line) to `DIR/<line index>.f32`, for the training tool; with `--log-mel`, also the
/// front end's frames to `DIR/<line index>.mel` (the network's spectrogram input); with `--band-limit 8k|4k|opus`,
/// of a band-limited or codec copy of each file (`EventBandLimit`) instead.
enum FeaturesEventsCommand {
    static let specification = ArgumentSpecification(
        options: ["list", "out", "band-limit"], flags: ["log-mel"],
        shortNames: ["o": "out"],
        usage: """
            usage: sleepanalysis features events --list FILES.txt --out DIR [--log-mel] [--band-limit 8k|4k|opus]

                  --list FILES.txt   the audio files, one path per line
              -o, --out DIR          where <line index>.f32 (and with --log-mel <line index>.mel) are written
                  --log-mel          also write the front end's log-mel frames
                  --band-limit 8k|4k|opus
                                     export a copy of each file: through 8 kHz and back (8k), low-passed
                                     at 4 kHz (4k) or through Ogg Opus at 12 kbit/s and back (opus)

            """)

    /// Runs the command.
    ///
    /// - Parameter arguments: The arguments after `features`.
    /// - Throws: `SleepCycleSdkError` for bad arguments, unreadable audio or an unwritable output folder.
    static func run(_ arguments: [String]) throws {
        guard let options = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let list = try options.required("list")
        let bandLimit = try BandLimitArgument.bandLimit(options)
        let out = URL(fileURLWithPath: try options.required("out"))
        let text: String
        do {
            text = try String(contentsOfFile: list, encoding: .utf8)
        } catch {
            throw SleepCycleSdkError.invalidInput("\(list): cannot read the file list")
        }
        do {
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        } catch {
            throw CommandLineError(
                kind: .outputFailed, message: "cannot write \(out.path): \(error.localizedDescription)")
        }
        let paths = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        let exporter = EventFeatureExporter()
        for (index, path) in paths.enumerated() {
            try exporter.export(
                URL(fileURLWithPath: path), to: out.appendingPathComponent("\(index).f32"),
                logMelOutput: options.flag("log-mel") ? out.appendingPathComponent("\(index).mel") : nil,
                bandLimit: bandLimit)
        }
    }
}

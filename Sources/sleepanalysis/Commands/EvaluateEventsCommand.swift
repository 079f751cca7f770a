import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis evaluate events --manifest MANIFEST.tsv --root DIR [--format json|text] [--model FILE]
/// [--band-limit 8k|4k|opus]`: runs the shipped event model (or another model file) on every listed clip (or on a
/// band-limited or codec copy of it, `EventBandLimit`) and prints per-type precision, recall and F1, macro-F1 and
/// the confusion matrix.
enum EvaluateEventsCommand {
    static let specification = ArgumentSpecification(
        options: ["manifest", "root", "format", "model", "band-limit"],
        shortNames: ["f": "format"],
        usage: """
            usage: sleepanalysis evaluate events --manifest MANIFEST.tsv --root DIR [--format json|text] [--model FILE]
                                                 [--band-limit 8k|4k|opus]

                  --manifest MANIFEST.tsv   the labelled clips (path and event type per line)
                  --root DIR                the folder the manifest's paths are relative to
              -f, --format json|text        output format (default text)
                  --model FILE              an event model to evaluate instead of the shipped one
                  --band-limit 8k|4k|opus   score a copy of each clip: through 8 kHz and back (8k), low-passed
                                            at 4 kHz (4k) or through Ogg Opus at 12 kbit/s and back (opus)

            """)

    /// Runs the command.
    ///
    /// - Parameter arguments: The arguments after `evaluate events`.
    /// - Throws: `SleepCycleSdkError` for bad arguments, a bad manifest, unreadable clips or a missing model.
    static func run(_ arguments: [String]) throws {
        guard let options = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let manifestPath = try options.required("manifest")
        let root = URL(fileURLWithPath: try options.required("root"))
        let format = try options.choice("format", from: ["json", "text"], default: "text")
        let bandLimit = try BandLimitArgument.bandLimit(options)
        let manifest = try EventClipManifest(manifest: URL(fileURLWithPath: manifestPath), root: root)
        let model =
            try options.option("model").map { try EventClassifierModel.load(from: URL(fileURLWithPath: $0)) }
            ?? EventClassifierModel.bundled()
        let evaluator = EventClipEvaluator(model: model)
        let report = try evaluator.evaluate(manifest, bandLimit: bandLimit)
        if format == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try StandardOutput.write(try encoder.encode(report) + Data("\n".utf8))
        } else {
            try StandardOutput.print(
                String(
                    format: "macro-F1 %.3f over %d event types, %d clips", report.macroF1, report.classes.count,
                    report.clips))
            for (name, score) in report.classes.sorted(by: { $0.key < $1.key }) {
                try StandardOutput.print(
                    String(
                        format: "%-16@ P %.3f  R %.3f  F1 %.3f  n %d", name as NSString, score.precision,
                        score.recall, score.f1, score.support))
            }
        }
    }
}

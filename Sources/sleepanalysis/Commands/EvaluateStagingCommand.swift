import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis evaluate staging --dataset walch --root DIR [--format json|text] [--model FILE | --model-dir DIR]
/// [--subjects ID,ID]`: runs a staging model on every subject under DIR and prints its agreement with the PSG.
///
/// JSON output (keys sorted): whole-night figures at the top level — `epochs`, `fourClass` {`accuracy`,
/// `kappa`, `perStageRecall` {`awake`, `light`, `deep`, `rem`}}, `threeClass` (wake / NREM / REM) {`accuracy`,
/// `kappa`}, `sleepWake` {`accuracy`, `kappa`, `wakeSpecificity`, `sleepSensitivity`} — the same figures from
/// the real-time (causal) predictions under `realTime`, and `subjects`: one object per subject with `subject`,
/// its whole-night figures and its `realTime` figures. Kappa is Cohen's, over all epochs pooled; a figure that
/// cannot be computed is null. Beside kappa, in each context: `expectedCalibrationError` (top-label, 10 bins) of
/// the published probabilities, `reliability` (the bins: `lower`, `upper`, `epochs`, `meanConfidence`,
/// `accuracy`), `intervals` (95 % bootstrap over subjects, 1,000 resamples, fixed seed: `fourClassKappa`,
/// `sleepWakeKappa`, `expectedCalibrationError`, each `lower`, `upper`, `level`, `replicates`) and
/// `fourClassKappaSpread` (the per-subject kappas' lowest, median, highest). `totalSleepRange` {`coverage`,
/// `medianWidthMinutes`}: how often the whole-night 90 % range of total sleep (`ResultConfidence`, over the scored
/// epochs) held the scored total; per subject `totalSleep` {`scoredMinutes`, `stagedMinutes`, `rangeLower`,
/// `rangeUpper`}.
///
/// `--model-dir DIR` stages each subject with `DIR/<subject>.json`, the leave-one-subject-out models written by
/// `Tools/staging/train.py --loso DIR`, so every subject is staged by a model that never saw it.
enum EvaluateStagingCommand {
    static let specification = ArgumentSpecification(
        options: ["dataset", "root", "format", "model", "model-dir", "subjects"],
        shortNames: ["f": "format"],
        usage: """
            usage: sleepanalysis evaluate staging --dataset walch --root DIR [--format json|text]
                                                  [--model FILE | --model-dir DIR] [--subjects ID,ID]

                  --dataset walch      the layout of DIR (PhysioNet sleep-accel as in shared/data/staging/walch)
                  --root DIR           labels/, heart_rate/ and features_walch_pipeline/ of the subjects
              -f, --format json|text   output format (default text)
                  --model FILE         a staging model file (default: the bundled Models/staging.json)
                  --model-dir DIR      DIR/<subject>.json per subject (leave-one-subject-out models)
                  --subjects ID,ID     only these subjects

            """)

    /// Runs the evaluation.
    ///
    /// - Parameter arguments: the arguments after `evaluate staging`.
    /// - Throws: `CommandLineError` for a bad command line, `SleepCycleSdkError` for bad data or models.
    static func run(_ arguments: [String]) throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        let root = try StagingDatasetArguments.root(parsed)
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        let model: (String) throws -> StagingModel
        if let directory = parsed.option("model-dir") {
            guard parsed.option("model") == nil else {
                throw CommandLineError.usage("give --model or --model-dir, not both", usage: specification.usage)
            }
            model = { subject in
                try StagingModel.load(from: URL(fileURLWithPath: directory).appendingPathComponent("\(subject).json"))
            }
        } else {
            let shared =
                try parsed.option("model").map { try StagingModel.load(from: URL(fileURLWithPath: $0)) }
                ?? StagingModel.bundled()
            model = { _ in shared }
        }
        let subjects = try StagingDatasetArguments.subjects(parsed, root: root)
        let nights = try subjects.map { try WalchNight(subjectId: $0, root: root) }
        let evaluation = try StagingEvaluation(nights: nights, model: model)
        if format == "json" {
            try StandardOutput.print(StagingReportFormatter.json(evaluation))
        } else {
            try StandardOutput.print(StagingReportFormatter.text(evaluation))
        }
    }
}

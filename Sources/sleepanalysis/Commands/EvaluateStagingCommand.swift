import Foundation
import SleepAnalysis

/// `sleepanalysis evaluate staging --dataset walch --root DIR [--format json|text] [--model FILE | --model-dir DIR]`:
/// runs a staging model on every subject under DIR and prints whole-night figures (top level: `fourClass`,
/// `threeClass`, `sleepWake`, `subjects`) and real-time figures (`realTime`).
///
/// `--model-dir DIR` uses `DIR/<subject>.json` for each subject: the leave-one-subject-out models written by
/// `Tools/staging/train.py --loso DIR`, so that every subject is staged by a model that never saw it.
enum EvaluateStagingCommand {
    static let usage = """
        usage: sleepanalysis evaluate staging --dataset walch --root DIR [--format json|text] \
        [--model FILE | --model-dir DIR] [--subjects ID,ID]
        """

    static func run(_ arguments: [String]) throws {
        let options = try StagingOptions(
            arguments, allowed: ["--dataset", "--root", "--format", "--model", "--model-dir", "--subjects"], usage: usage)
        let root = try options.root()
        let format = options.values["--format"] ?? "text"
        guard format == "json" || format == "text" else {
            throw SleepCycleSdkError.invalidConfiguration("--format must be json or text")
        }
        let model: (String) throws -> StagingModel
        if let directory = options.values["--model-dir"] {
            model = { subject in
                try StagingModel.load(from: URL(fileURLWithPath: directory).appendingPathComponent("\(subject).json"))
            }
        } else {
            let shared = try options.values["--model"].map { try StagingModel.load(from: URL(fileURLWithPath: $0)) }
                ?? StagingModel.bundled()
            model = { _ in shared }
        }
        let nights = try options.subjects(root: root).map { try WalchNight(subjectId: $0, root: root) }
        let evaluation = try StagingEvaluation(nights: nights, model: model)
        let output = format == "json" ? try StagingReportFormatter.json(evaluation) : StagingReportFormatter.text(evaluation)
        FileHandle.standardOutput.write(Data((output + "\n").utf8))
    }
}

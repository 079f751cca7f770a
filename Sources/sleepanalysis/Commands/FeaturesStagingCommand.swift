import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis features staging --dataset walch --root DIR --out FILE.csv [--subjects ID,ID]`: writes the staging
/// model inputs the library computes for every subject under DIR (the training table of `Tools/staging/train.py`;
/// columns in `StagingFeatureTable`).
enum FeaturesStagingCommand {
    static let specification = ArgumentSpecification(
        options: ["dataset", "root", "out", "subjects"],
        shortNames: ["o": "out"],
        usage: """
            usage: sleepanalysis features staging --dataset walch --root DIR --out FILE.csv [--subjects ID,ID]

                  --dataset walch      the layout of DIR (PhysioNet sleep-accel as in shared/data/staging/walch)
                  --root DIR           labels/, heart_rate/ and features_walch_pipeline/ of the subjects
              -o, --out FILE.csv       where to write the table
                  --subjects ID,ID     only these subjects

            """)

    /// Writes the table.
    ///
    /// - Parameter arguments: the arguments after `features staging`.
    /// - Throws: `CommandLineError` for a bad command line, `SleepCycleSdkError` for bad data or an unwritable file.
    static func run(_ arguments: [String]) throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        guard let out = parsed.option("out") else {
            throw CommandLineError.usage("--out is required", usage: specification.usage)
        }
        let root = try StagingDatasetArguments.root(parsed)
        var text = StagingFeatureTable.header + "\n"
        for subject in try StagingDatasetArguments.subjects(parsed, root: root) {
            let night = try WalchNight(subjectId: subject, root: root)
            for row in StagingFeatureTable.rows(for: night) { text += row + "\n" }
        }
        do {
            try text.write(toFile: out, atomically: true, encoding: .utf8)
        } catch {
            throw CommandLineError(kind: .outputFailed, message: "cannot write \(out): \(error.localizedDescription)")
        }
    }
}

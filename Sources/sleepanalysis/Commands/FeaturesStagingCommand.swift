import Foundation
import SleepAnalysis

/// `sleepanalysis features staging --dataset walch --root DIR --out FILE.csv`: writes the staging model inputs the
/// library computes for every subject under DIR (the training table for `Tools/staging/train.py`).
enum FeaturesStagingCommand {
    static let usage = "usage: sleepanalysis features staging --dataset walch --root DIR --out FILE.csv [--subjects ID,ID]"

    static func run(_ arguments: [String]) throws {
        let options = try StagingOptions(arguments, allowed: ["--dataset", "--root", "--out", "--subjects"], usage: usage)
        guard let out = options.values["--out"] else { throw SleepCycleSdkError.invalidConfiguration(usage) }
        let root = try options.root()
        var text = StagingFeatureTable.header + "\n"
        for subject in try options.subjects(root: root) {
            let night = try WalchNight(subjectId: subject, root: root)
            for row in StagingFeatureTable.rows(for: night) { text += row + "\n" }
        }
        do {
            try text.write(toFile: out, atomically: true, encoding: .utf8)
        } catch {
            throw SleepCycleSdkError.storageFailure("\(out): \(error.localizedDescription)")
        }
    }
}

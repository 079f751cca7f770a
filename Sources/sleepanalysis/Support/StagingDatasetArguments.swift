import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `--dataset`, `--root` and `--subjects` of the staging commands.
enum StagingDatasetArguments {
    /// The data set directory (`--root`), checked to exist; `--dataset` must be `walch` when given.
    ///
    /// - Throws: a usage `CommandLineError` for a missing root or an unknown data set, `.badData` for a missing
    ///   directory.
    static func root(_ parsed: ParsedArguments) throws -> URL {
        let dataset = try parsed.choice("dataset", from: ["walch"], default: "walch")
        guard let path = parsed.option("root") else {
            throw CommandLineError.usage("--root is required (the \(dataset) data set directory)", usage: parsed.usage)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandLineError.badData("\(path): no such directory")
        }
        return URL(fileURLWithPath: path)
    }

    /// The subjects to use: `--subjects` (each checked to exist) or every subject under `root`.
    ///
    /// - Throws: `.badData` for an unknown subject, `SleepCycleSdkError.invalidInput` for an empty data set.
    static func subjects(_ parsed: ParsedArguments, root: URL) throws -> [String] {
        let all = try WalchNight.subjectIds(root: root)
        guard let list = parsed.option("subjects") else { return all }
        let chosen = list.split(separator: ",").map(String.init)
        for subject in chosen where !all.contains(subject) {
            throw CommandLineError.badData("subject \(subject) is not under \(root.path)")
        }
        return chosen
    }
}

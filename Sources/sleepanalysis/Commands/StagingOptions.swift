import Foundation
import SleepAnalysis

/// `--name value` options shared by the staging commands.
struct StagingOptions {
    var values: [String: String] = [:]

    init(_ arguments: [String], allowed: Set<String>, usage: String) throws {
        var index = 0
        while index < arguments.count {
            let name = arguments[index]
            guard allowed.contains(name), index + 1 < arguments.count else {
                throw SleepCycleSdkError.invalidConfiguration("unexpected argument '\(name)'\n\(usage)")
            }
            values[name] = arguments[index + 1]
            index += 2
        }
        if let dataset = values["--dataset"], dataset != "walch" {
            throw SleepCycleSdkError.invalidConfiguration("unknown dataset '\(dataset)' (supported: walch)")
        }
        guard values["--root"] != nil else { throw SleepCycleSdkError.invalidConfiguration(usage) }
    }

    func root() throws -> URL {
        let path = values["--root"] ?? "."
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SleepCycleSdkError.invalidInput("\(path): no such directory")
        }
        return URL(fileURLWithPath: path)
    }

    func subjects(root: URL) throws -> [String] {
        let all = try WalchNight.subjectIds(root: root)
        guard let list = values["--subjects"] else { return all }
        let chosen = list.split(separator: ",").map(String.init)
        for subject in chosen where !all.contains(subject) {
            throw SleepCycleSdkError.invalidInput("subject \(subject) is not under \(root.path)")
        }
        return chosen
    }
}

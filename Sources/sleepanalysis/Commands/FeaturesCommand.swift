import Foundation
import SleepAnalysis

/// `sleepanalysis features --list FILES.txt --out DIR`: exports the event classifier's window features of each
/// listed audio file (one path per line) to `DIR/<line index>.f32`, for the training tool.
enum FeaturesCommand {
    static let usage = "usage: sleepanalysis features events --list FILES.txt --out DIR"

    /// Runs the command.
    ///
    /// - Parameter arguments: The arguments after `features`.
    /// - Throws: `SleepCycleSdkError` for bad arguments, unreadable audio or an unwritable output folder.
    static func run(_ arguments: [String]) throws {
        let options = try CommandOptions(arguments, valued: ["--list", "--out"], usage: usage)
        let list = try options.required("--list")
        let out = URL(fileURLWithPath: try options.required("--out"))
        let text: String
        do {
            text = try String(contentsOfFile: list, encoding: .utf8)
        } catch {
            throw SleepCycleSdkError.invalidInput("\(list): cannot read the file list")
        }
        do {
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        } catch {
            throw SleepCycleSdkError.storageFailure("\(out.path): \(error.localizedDescription)")
        }
        let paths = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        let exporter = EventFeatureExporter()
        for (index, path) in paths.enumerated() {
            try exporter.export(URL(fileURLWithPath: path), to: out.appendingPathComponent("\(index).f32"))
        }
    }
}

import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench events [--hours N | --audio FILE] [--model FILE]`: the events engine's cost per hour of
/// audio (detector and front end) on synthetic audio or a recording, with the bundled model or a model file (to
/// weigh a candidate before shipping it), and the share of windows on which every network of the model ran.
enum EventsBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        let parsed: ParsedArguments
        switch commandLine.parse(arguments) {
        case .parsed(let given): parsed = given
        case .finished(let status): return status
        }
        var hours = 1.0
        do {
            hours = try parsed.option("hours").map(BenchmarkNightChoice.hours) ?? hours
        } catch {
            return commandLine.fail(error.message)
        }
        let audio = parsed.option("audio").map { URL(fileURLWithPath: $0) }
        let modelFile = parsed.option("model").map { URL(fileURLWithPath: $0) }
        do {
            let model = try modelFile.map { try EventClassifierModel.load(from: $0) } ?? EventClassifierModel.bundled()
            let result: EventEngineBenchmark.Result
            if let audio {
                result = try EventEngineBenchmark.run(file: audio, model: model)
            } else {
                result = try EventEngineBenchmark.run(hours: hours, model: model)
            }
            let perHour = 3600 / result.audioSeconds
            let byType = result.eventCountByType.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            print(
                String(
                    format: "events engine: %.3f s CPU per hour of audio (detector), front end %.3f s, %d events",
                    result.detectorSeconds * perHour, result.frontEndSeconds * perHour, result.eventCount)
                    + (byType.isEmpty ? "" : " (\(byType))")
                    + String(
                        format: "; every network ran on %d of %d windows (%.1f %%)", result.windowsWithEveryMember,
                        result.windowCount,
                        100 * Double(result.windowsWithEveryMember) / Double(max(1, result.windowCount))))
            return 0
        } catch {
            FileHandle.standardError.write(Data("sleepanalysis-bench events: \(error)\n".utf8))
            return 1
        }
    }

    private static let commandLine = BenchmarkCommandLine(
        command: "events", syntax: "[--hours N | --audio FILE] [--model FILE]", options: ["hours", "audio", "model"])
}

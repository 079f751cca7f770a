import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench vitals [--hours N]`: the breathing-rate and audio-health engines' cost per hour of audio.
enum VitalsBenchmarkCommand {
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
        do {
            let result = try VitalsBenchmark.run(hours: hours)
            let perHour = 3600 / result.audioSeconds
            print(
                String(
                    format: "breathing rate: %.3f s per hour of audio (%d estimates); audio health: %.3f s per hour",
                    result.breathingSeconds * perHour, result.estimateCount, result.healthSeconds * perHour))
            return 0
        } catch {
            FileHandle.standardError.write(Data("sleepanalysis-bench vitals: \(error)\n".utf8))
            return 1
        }
    }

    private static let commandLine = BenchmarkCommandLine(
        command: "vitals", syntax: "[--hours N]", options: ["hours"])
}

import CommandLineKit
import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench pipeline [--hours N] [--input FILE]`: a whole night through the public SDK (replay,
/// resampling, front end, events, breathing, audio health, staging, journal) as fast as possible: multiple of
/// real time (wall and CPU) and peak memory, which must not grow with the night's length.
enum PipelineBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch commandLine.parse(arguments) {
        case .parsed(let given): parsed = given
        case .finished(let status): return status
        }
        var night = BenchmarkNightChoice()
        do {
            try night.take(parsed)
        } catch {
            return commandLine.fail(error.message)
        }
        var features = SleepAnalysisFeatures.all
        if let value = parsed.option("features"), value != "all" {
            var unknown: [String] = []
            features = SleepAnalysisFeatures(
                names: value == "none" ? [] : value.split(separator: ",").map(String.init), unknown: &unknown)
            guard unknown.isEmpty else { return commandLine.fail("unknown features \(unknown)") }
        }
        do {
            let file = try night.file()
            let run = try await BenchmarkNight.analyse(file, features: features)
            let (result, wall, cpu) = (run.result, run.wallSeconds, run.cpuSeconds)
            let audio = run.audioSeconds
            print(
                String(
                    format: "pipeline: %.2f h of audio in %.1f s wall (%.0f× real time), %.1f s CPU (%.0f× per core); "
                        + "%d epochs, %d events, %d breathing rates; peak memory %.1f MiB",
                    audio / 3600, wall, audio / wall, cpu, audio / cpu, result.sleepStagePredictions.count,
                    result.events.count, result.breathingRates.count, peakMemoryMiB()))
            return 0
        } catch {
            FileHandle.standardError.write(Data("sleepanalysis-bench pipeline: \(error)\n".utf8))
            return 1
        }
    }

    private static let commandLine = BenchmarkCommandLine(
        command: "pipeline", syntax: "\(BenchmarkNightChoice.usage) [--features all|none|a,b]",
        options: BenchmarkNightChoice.optionNames.union(["features"]))
}

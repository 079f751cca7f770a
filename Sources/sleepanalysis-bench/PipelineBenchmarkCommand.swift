import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench pipeline [--hours N] [--input FILE]`: a whole night through the public SDK (replay,
/// resampling, front end, events, breathing, audio health, staging, journal) as fast as possible: multiple of
/// real time (wall and CPU) and peak memory, which must not grow with the night's length.
enum PipelineBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        var night = BenchmarkNightChoice()
        var features = SleepAnalysisFeatures.all
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard let value = rest.popFirst() else { return usage("\(name) needs a value") }
            do {
                if try night.take(name, value) { continue }
            } catch {
                return usage(error.message)
            }
            switch name {
            case "--features":
                var unknown: [String] = []
                features =
                    value == "all"
                    ? .all
                    : SleepAnalysisFeatures(
                        names: value == "none" ? [] : value.split(separator: ",").map(String.init), unknown: &unknown)
                guard unknown.isEmpty else { return usage("unknown features \(unknown)") }
            default: return usage("unknown option \(name)")
            }
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

    private static func usage(_ message: String) -> Int32 {
        BenchmarkUsage.fail("pipeline", message, syntax: "\(BenchmarkNightChoice.usage) [--features all|none|a,b]")
    }
}

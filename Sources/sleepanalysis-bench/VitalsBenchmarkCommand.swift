import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench vitals [--hours N]`: the breathing-rate and audio-health engines' cost per hour of audio.
enum VitalsBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var hours = 1.0
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard name == "--hours" else { return usage("unknown option \(name)") }
            guard let value = rest.popFirst() else { return usage("--hours needs a value") }
            do {
                hours = try BenchmarkNightChoice.hours(value)
            } catch {
                return usage(error.message)
            }
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

    private static func usage(_ message: String) -> Int32 {
        BenchmarkUsage.fail("vitals", message, syntax: "[--hours N]")
    }
}

import Foundation
import SleepAnalysis
import SleepAnalysisEvaluation

/// `sleepanalysis-bench vitals [--hours N]`: the breathing-rate and audio-health engines' cost per hour of audio.
enum VitalsBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var hours = 1.0
        if let index = arguments.firstIndex(of: "--hours"), index + 1 < arguments.count,
            let value = Double(arguments[index + 1]), value > 0
        {
            hours = value
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
}

import Foundation
import SleepAnalysisEvaluation

/// The night a whole-night benchmark runs on: `--input FILE`, else `--hours N` of the synthetic night at 16 kHz
/// (default 1 hour), written to /tmp on first use and reused.
struct BenchmarkNightChoice {
    private var hours = 1.0
    private var input: URL?

    /// Takes `--hours` or `--input` with its value.
    ///
    /// - Returns: false when `name` is another option; a bad value throws its usage message.
    mutating func take(_ name: String, _ value: String) throws(BenchmarkUsageError) -> Bool {
        switch name {
        case "--hours":
            guard let parsed = Double(value), parsed > 0 else {
                throw BenchmarkUsageError("--hours: a positive number")
            }
            hours = parsed
        case "--input": input = URL(fileURLWithPath: value)
        default: return false
        }
        return true
    }

    /// The file to analyse: the input, or the synthetic night (written if missing).
    func file() throws -> URL {
        if let input { return input }
        let url = URL(fileURLWithPath: "/tmp").appendingPathComponent(
            String(format: "sleepanalysis-bench-%gh-16000.wav", hours))
        if !FileManager.default.fileExists(atPath: url.path) {
            try SyntheticNight.write(to: url, duration: hours * 3600, sampleRate: 16_000, format: .wav)
        }
        return url
    }
}

/// A bad benchmark command line: the message for the usage line.
struct BenchmarkUsageError: Error {
    let message: String

    init(_ message: String) { self.message = message }
}

import Foundation
import SleepAnalysisEvaluation

/// The night a whole-night benchmark runs on: `--input FILE`, else `--hours N` of the synthetic night (default 1
/// hour) at `--rate HZ` (default 16000) with `--channels 1|2` (default 1), written to /tmp on first use and reused.
struct BenchmarkNightChoice {
    /// The options it takes, for the usage lines.
    static let usage = "[--input FILE | --hours N [--rate HZ] [--channels 1|2]]"

    private var hours: Double
    private var rate: Int
    private var channels: Int
    private var input: URL?

    /// The synthetic night used when no `--input` is given, before the options change it.
    init(hours: Double = 1, rate: Int = 16_000, channels: Int = 1) {
        self.hours = hours
        self.rate = rate
        self.channels = channels
    }

    /// Takes `--hours`, `--rate`, `--channels` or `--input` with its value.
    ///
    /// - Returns: false when `name` is another option; a bad value throws its usage message.
    mutating func take(_ name: String, _ value: String) throws(BenchmarkUsageError) -> Bool {
        switch name {
        case "--hours": hours = try Self.hours(value)
        case "--rate":
            guard let parsed = Int(value), parsed >= 8_000 else {
                throw BenchmarkUsageError("--rate: Hz, 8000 or more")
            }
            rate = parsed
        case "--channels":
            guard let parsed = Int(value), parsed == 1 || parsed == 2 else {
                throw BenchmarkUsageError("--channels: 1 or 2")
            }
            channels = parsed
        case "--input": input = URL(fileURLWithPath: value)
        default: return false
        }
        return true
    }

    /// Parses the value of `--hours`.
    ///
    /// - Returns: the hours, a positive finite number; anything else throws its usage message.
    static func hours(_ value: String) throws(BenchmarkUsageError) -> Double {
        guard let parsed = Double(value), parsed > 0, parsed.isFinite else {
            throw BenchmarkUsageError("--hours: a positive number")
        }
        return parsed
    }

    /// The file to analyse: the input, or the synthetic night (written if missing).
    func file() throws -> URL {
        if let input { return input }
        let url = URL(fileURLWithPath: "/tmp").appendingPathComponent(
            String(format: "sleepanalysis-bench-%gh-%d%@.wav", hours, rate, channels == 2 ? "-stereo" : ""))
        if !FileManager.default.fileExists(atPath: url.path) {
            try SyntheticNight.write(
                to: url, duration: hours * 3600, sampleRate: rate, format: .wav, channelCount: channels)
        }
        return url
    }
}

/// A bad benchmark command line: the message for the usage line.
struct BenchmarkUsageError: Error {
    let message: String

    init(_ message: String) { self.message = message }
}

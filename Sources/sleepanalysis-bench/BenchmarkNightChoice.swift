import CommandLineKit
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

    /// The option names it reads (without `--`).
    static let optionNames: Set<String> = ["input", "hours", "rate", "channels"]

    /// Takes `--hours`, `--rate`, `--channels` and `--input` from a parsed command line, each when given.
    ///
    /// - Throws: a bad value's usage message.
    mutating func take(_ parsed: ParsedArguments) throws(BenchmarkUsageError) {
        if let value = parsed.option("hours") { hours = try Self.hours(value) }
        if let value = parsed.option("rate") {
            guard let rate = Int(value), rate >= 8_000 else { throw BenchmarkUsageError("--rate: Hz, 8000 or more") }
            self.rate = rate
        }
        if let value = parsed.option("channels") {
            guard let channels = Int(value), channels == 1 || channels == 2 else {
                throw BenchmarkUsageError("--channels: 1 or 2")
            }
            self.channels = channels
        }
        if let value = parsed.option("input") { input = URL(fileURLWithPath: value) }
    }

    /// Replaces the synthetic night's length.
    ///
    /// - Parameter hours: The length in hours, positive.
    mutating func setHours(_ hours: Double) {
        self.hours = hours
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

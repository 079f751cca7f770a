import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis-bench live [--seconds 60] [--input FILE | --rate HZ --channels 1|2]`: what live analysis costs a
/// bedside device. The recording (by default a minute of the synthetic night at 48 kHz in stereo) is replayed at
/// the pace it was recorded (`ReplayPace.realTime`) through the SDK with every feature (two sleepers, one per
/// channel, for a stereo file), and the process's CPU time is divided by the elapsed time: the share of one core
/// the analysis keeps busy. A pipeline that waited busily would show a share near 100 %. ALSA's own reads are not
/// included: this machine has no capture device that runs at the pace of a clock (ALSA's file plugin over the
/// null device delivers as fast as it is read).
enum LiveBenchmarkCommand {
    /// Runs the benchmark and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        let parsed: ParsedArguments
        switch commandLine.parse(arguments) {
        case .parsed(let given): parsed = given
        case .finished(let status): return status
        }
        var night = BenchmarkNightChoice(hours: 60.0 / 3600, rate: 48_000, channels: 2)
        do {
            try night.take(parsed)
        } catch {
            return commandLine.fail(error.message)
        }
        if let value = parsed.option("seconds") {
            guard let seconds = Double(value), seconds >= 5, seconds <= 3_600 else {
                return commandLine.fail("--seconds: 5 ... 3600")
            }
            night.setHours(seconds / 3600)
        }
        do {
            let file = try night.file()
            let stereo = try AudioFileReader(url: file).channelCount == 2
            let run = try await BenchmarkNight.analyse(file, stereo: stereo, pace: .realTime)
            print(
                String(
                    format: "live: %.1f s of %@ at the recorded pace in %.1f s; %.3f s CPU = %.2f %% of one core "
                        + "(%d session%@); peak memory %.1f MiB",
                    run.audioSeconds, file.lastPathComponent, run.wallSeconds, run.cpuSeconds,
                    100 * run.cpuSeconds / run.wallSeconds, run.results.count, run.results.count == 1 ? "" : "s",
                    peakMemoryMiB()))
            return 0
        } catch {
            FileHandle.standardError.write(Data("sleepanalysis-bench live: \(error)\n".utf8))
            return 1
        }
    }

    private static let commandLine = BenchmarkCommandLine(
        command: "live", syntax: "[--seconds 60] \(BenchmarkNightChoice.usage)",
        options: BenchmarkNightChoice.optionNames.union(["seconds"]))
}

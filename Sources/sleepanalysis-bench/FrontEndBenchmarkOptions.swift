import CommandLineKit
import Foundation
import SleepAnalysisEvaluation

/// The options of the front-end benchmark (`sleepanalysis-bench` without a sub-command).
struct FrontEndBenchmarkOptions {
    /// What it accepts, and its usage line.
    static let commandLine = BenchmarkCommandLine(
        command: nil,
        syntax: "[--hours N] [--rates R1,R2] [--format wav|flac] [--input FILE] [--dir DIR] "
            + "[--stages read,digest,resample,frontEnd] [--block FRAMES] [--regenerate] [--accelerometer CSV]",
        options: ["hours", "rates", "format", "input", "dir", "stages", "block", "accelerometer"],
        flags: ["regenerate"])

    var hours = 8.0
    var rates = [16_000]
    var format = SyntheticNight.Format.wav
    var input: URL?
    var directory = URL(fileURLWithPath: "/tmp")
    var regenerate = false
    var stages = FrontEndRun.Stages.allCases
    /// Frames per read: blocks of 16 Ki frames stay under glibc's mmap threshold (128 KiB); larger blocks are
    /// mapped and unmapped on every read and the page faults cost more than the front end.
    var blockFrames = 16_384
    var accelerometer: URL?

    /// Reads the options from a parsed command line.
    ///
    /// - Throws: a bad value's usage message.
    init(_ parsed: ParsedArguments) throws(BenchmarkUsageError) {
        regenerate = parsed.flag("regenerate")
        if let value = parsed.option("hours") {
            guard let hours = Double(value), hours > 0 else {
                throw BenchmarkUsageError("--hours: positive number expected")
            }
            self.hours = hours
        }
        if let value = parsed.option("rates") {
            let rates = value.split(separator: ",").compactMap { Int($0) }
            guard !rates.isEmpty, rates.allSatisfy({ $0 >= 8_000 }) else {
                throw BenchmarkUsageError("--rates: rates ≥ 8000 expected")
            }
            self.rates = rates
        }
        if let value = parsed.option("format") {
            guard let format = SyntheticNight.Format(rawValue: value) else {
                throw BenchmarkUsageError("--format: wav or flac")
            }
            self.format = format
        }
        if let value = parsed.option("stages") {
            let stages = value.split(separator: ",").compactMap { FrontEndRun.Stages(rawValue: String($0)) }
            guard !stages.isEmpty else { throw BenchmarkUsageError("--stages: read, digest, resample and/or frontEnd") }
            self.stages = stages
        }
        if let value = parsed.option("block") {
            guard let frames = Int(value), frames > 0 else {
                throw BenchmarkUsageError("--block: frames per read, positive")
            }
            blockFrames = frames
        }
        input = parsed.option("input").map { URL(fileURLWithPath: $0) }
        if let value = parsed.option("dir") { directory = URL(fileURLWithPath: value) }
        accelerometer = parsed.option("accelerometer").map { URL(fileURLWithPath: $0) }
    }

    /// Parses the command line; on `--help` or a bad command line, reports and exits (0 or 64).
    ///
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: The options.
    static func parse(_ arguments: [String]) -> FrontEndBenchmarkOptions {
        switch commandLine.parse(arguments) {
        case .finished(let status): exit(status)
        case .parsed(let parsed):
            do {
                return try FrontEndBenchmarkOptions(parsed)
            } catch {
                exit(commandLine.fail(error.message))
            }
        }
    }
}

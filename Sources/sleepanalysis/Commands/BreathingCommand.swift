import CommandLineKit
import Foundation
import SleepAnalysis

/// `sleepanalysis breathing AUDIO [--accelerometer CSV] [--window S] [--format json|text]`: the breathing rate of a
/// recording.
///
/// JSON output: `{"file": …, "accelerometer": …, "rates": [{"offset_s": …, "bpm": …, "confidence": …}, …],
/// "median_bpm": … or null}` where `offset_s` is the end of the analysed window in seconds from the recording's
/// start.
enum BreathingCommand {
    /// What it accepts.
    static let specification = ArgumentSpecification(
        options: [
            "accelerometer", "start", "format", "window", "peak-fraction", "alternation-threshold", "harmonic-fraction",
            "minimum-score", "neighbour-windows",
        ],
        shortNames: ["f": "format"],
        allowsExtraPositionals: true,
        usage: """
            usage: sleepanalysis breathing AUDIO [--accelerometer CSV] [--window SECONDS] [--format json|text]
                   sleepanalysis breathing --accelerometer CSV [--window SECONDS] [--format json|text]

            Breathing rate every 30 s over 60-s windows, from breath sounds and/or mattress micro-motion.

                  AUDIO                           audio file (WAV, FLAC, OGG…)
                  --accelerometer CSV             accelerometer readings: timestamp,x,y,z (seconds from the
                                                  start, epoch seconds or ISO 8601 with a zone)
                  --start ISO8601                 when the recording began: what relative CSV timestamps and the
                                                  offsets printed count from (default: the first reading of a CSV
                                                  with absolute timestamps, said on standard error; else 0)
                  --window SECONDS                a shorter window for short clips (20...600 s; estimates every
                                                  half window)
              -f, --format json|text              output format (default text)
                  --peak-fraction F               tuning, for evaluation only (default 0.7)
                  --alternation-threshold T       tuning, for evaluation only (default 2)
                  --harmonic-fraction H           tuning, for evaluation only (default 0.6; 0: no sub-harmonic
                                                  check)
                  --neighbour-windows N           neighbouring-window check over N windows, for evaluation only
                                                  (default 0: off)
                  --minimum-score S               abstention, for evaluation only (default 0.15)

            """)

    /// Runs the command with the arguments after `breathing`.
    ///
    /// - Throws: a usage `CommandLineError` for a bad command line, `SleepCycleSdkError` or a bad-data
    ///   `CommandLineError` for unreadable or malformed input.
    static func run(_ arguments: [String]) throws {
        guard let parsed = try ArgumentParser.parseUnlessHelp(arguments, specification) else { return }
        guard parsed.positionals.count <= 1 else {
            throw CommandLineError.usage("unexpected argument: \(parsed.positionals[1])")
        }
        let audio = parsed.positionals.first
        let accelerometer = parsed.option("accelerometer")
        let format = try parsed.choice("format", from: ["json", "text"], default: "text")
        var options = BreathingAnalysisOptions()
        if let window = try parsed.option("window", as: Double.self) { options.windowSeconds = window }
        if let fraction = try parsed.option("peak-fraction", as: Double.self) { options.peakFraction = fraction }
        if let threshold = try parsed.option("alternation-threshold", as: Double.self) {
            options.alternationThreshold = threshold
        }
        if let fraction = try parsed.option("harmonic-fraction", as: Double.self) {
            guard (0...1).contains(fraction) else {
                throw CommandLineError.usage("--harmonic-fraction must be in 0...1")
            }
            options.harmonicFraction = fraction
        }
        if let windows = try parsed.option("neighbour-windows", as: Int.self) {
            guard (0...20).contains(windows) else {
                throw CommandLineError.usage("--neighbour-windows must be in 0...20")
            }
            options.neighbourWindows = windows
        }
        if let score = try parsed.option("minimum-score", as: Double.self) {
            guard score > 0, score < 1 else { throw CommandLineError.usage("--minimum-score must be in (0, 1)") }
            options.minimumScore = score
        }
        guard audio != nil || accelerometer != nil else {
            throw CommandLineError.usage("give an audio file or --accelerometer CSV")
        }
        let origin = try start(parsed, accelerometer: accelerometer.map { URL(fileURLWithPath: $0) })
        let rates: [BreathingRate]
        do {
            rates = try BreathingAnalysis.analyze(
                audio: audio.map { URL(fileURLWithPath: $0) },
                accelerometer: accelerometer.map { URL(fileURLWithPath: $0) }, startTime: origin,
                options: options)
        } catch let error as SleepCycleSdkError {
            throw error
        } catch {
            // Anything else the analysis throws comes from reading the files it was given.
            throw CommandLineError.badData("\(error)")
        }
        let sorted = rates.map(\.bpm).sorted()
        let median: Double? =
            sorted.isEmpty
            ? nil : (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
        if format == "json" {
            let document = BreathingDocument(
                file: audio, accelerometer: accelerometer,
                rates: rates.map {
                    BreathingDocument.Rate(
                        offset: $0.timestamp.timeIntervalSince(origin), timestamp: $0.timestamp, bpm: $0.bpm,
                        confidence: $0.confidence)
                },
                medianBpm: median)
            try StandardOutput.write(try SleepAnalysisJSON.encode(document) + Data("\n".utf8))
        } else {
            for rate in rates {
                let offset = rate.timestamp.timeIntervalSince(origin)
                try StandardOutput.print(
                    String(format: "%8.1f s  %5.1f breaths/min  confidence %.2f", offset, rate.bpm, rate.confidence))
            }
            try StandardOutput.print(
                median.map { String(format: "median %.1f breaths/min", $0) } ?? "no periodic breathing found")
        }
    }
}

extension BreathingCommand {
    /// What the offsets and relative CSV timestamps count from: `--start`, else the first reading of a CSV with
    /// absolute timestamps (said on standard error), else the Unix epoch (offsets from the file's start).
    ///
    /// - Throws: a usage `CommandLineError` for a `--start` that is not an ISO 8601 date and time.
    static func start(_ parsed: ParsedArguments, accelerometer: URL?) throws -> Date {
        if let text = parsed.option("start") {
            guard let date = ISO8601DateTimeParser(syntax: .timestamp).date(from: text) else {
                throw CommandLineError.usage("--start must be an ISO 8601 date and time, not '\(text)'")
            }
            return date
        }
        if let accelerometer, let first = try? SensorCSVFirstReading.absoluteTime(of: accelerometer, localZone: nil) {
            CommandRunner.printError(
                "sleepanalysis breathing: no --start: the recording starts at the first reading, "
                    + "\(Timestamps.iso8601(first)) (\(accelerometer.lastPathComponent))\n")
            return first
        }
        return Date(timeIntervalSince1970: 0)
    }
}

/// `breathing` in the command table.
enum BreathingCommandEntry: Command {
    static let name = "breathing"
    static let summary = "estimate the breathing rate of a recording"

    /// What it accepts: `BreathingCommand.specification`.
    static var syntax: CommandSyntax { .options(BreathingCommand.specification) }

    static func run(_ arguments: [String]) async throws {
        try BreathingCommand.run(arguments)
    }
}

/// What `breathing --format json` writes (`Schemas/breathing.schema.json`): the inputs, each rate with its offset
/// from the recording's start (seconds) and its instant, and the median rate.
struct BreathingDocument: Encodable {
    /// One measurement.
    struct Rate: Encodable {
        /// Seconds from the recording's start.
        var offset: Double
        /// The instant it stands for.
        var timestamp: Date
        /// Breaths per minute.
        var bpm: Double
        /// 0...1.
        var confidence: Double
    }

    var schemaVersion = SleepAnalysisJSON.schemaVersion
    /// The audio file, nil without audio.
    var file: String?
    /// The accelerometer CSV, nil without one.
    var accelerometer: String?
    /// The measurements, in time order.
    var rates: [Rate]
    /// The median of the rates, nil without any.
    var medianBpm: Double?

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, file, accelerometer, rates, medianBpm
    }

    /// Encodes every member, `null` for an absent input or median (the keys are always there).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(file, forKey: .file)
        try container.encode(accelerometer, forKey: .accelerometer)
        try container.encode(rates, forKey: .rates)
        try container.encode(medianBpm, forKey: .medianBpm)
    }
}

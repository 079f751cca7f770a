import Foundation
import SleepAnalysis

/// `sleepanalysis breathing AUDIO [--accelerometer CSV] [--window S] [--format json|text]`: the breathing rate of a
/// recording.
///
/// JSON output: `{"file": …, "accelerometer": …, "rates": [{"offset_s": …, "bpm": …, "confidence": …}, …],
/// "median_bpm": … or null}` where `offset_s` is the end of the analysed window in seconds from the recording's
/// start.
enum BreathingCommand {
    /// Runs the command with the arguments after `breathing`; returns the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        var audio: String?
        var accelerometer: String?
        var format = "text"
        var options = BreathingAnalysisOptions()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--accelerometer", "--format", "--window", "--peak-fraction", "--alternation-threshold":
                guard index + 1 < arguments.count else { return usage("\(argument) needs a value") }
                let value = arguments[index + 1]
                switch argument {
                case "--format": format = value
                case "--accelerometer": accelerometer = value
                default:
                    guard let number = Double(value) else { return usage("\(argument) needs a number") }
                    switch argument {
                    case "--window": options.windowSeconds = number
                    case "--peak-fraction": options.peakFraction = number
                    default: options.alternationThreshold = number
                    }
                }
                index += 2
            case "-h", "--help":
                print(help)
                return 0
            default:
                guard !argument.hasPrefix("--"), audio == nil else { return usage("unexpected argument \(argument)") }
                audio = argument
                index += 1
            }
        }
        guard format == "json" || format == "text" else { return usage("--format must be json or text") }
        guard audio != nil || accelerometer != nil else { return usage("give an audio file or --accelerometer CSV") }
        let origin = Date(timeIntervalSince1970: 0)
        let rates: [BreathingRate]
        do {
            rates = try BreathingAnalysis.analyze(
                audio: audio.map { URL(fileURLWithPath: $0) },
                accelerometer: accelerometer.map { URL(fileURLWithPath: $0) }, startTime: origin,
                options: options)
        } catch let error as SleepCycleSdkError {
            FileHandle.standardError.write(Data("sleepanalysis breathing: \(error)\n".utf8))
            return CommandLineError.exitCode(for: error)
        } catch {
            // Anything else the analysis throws comes from reading the files it was given.
            FileHandle.standardError.write(Data("sleepanalysis breathing: \(error)\n".utf8))
            return 65
        }
        let sorted = rates.map(\.bpm).sorted()
        let median: Double? =
            sorted.isEmpty
            ? nil : (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
        if format == "json" {
            let items = rates.map { rate -> [String: Any] in
                ["offset_s": rate.timestamp.timeIntervalSince(origin), "bpm": rate.bpm, "confidence": rate.confidence]
            }
            let object: [String: Any] = [
                "file": audio ?? NSNull(), "accelerometer": accelerometer ?? NSNull(), "rates": items,
                "median_bpm": median ?? NSNull(),
            ]
            guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
                FileHandle.standardError.write(Data("sleepanalysis breathing: cannot encode JSON\n".utf8))
                return 1
            }
            print(String(decoding: data, as: UTF8.self))
        } else {
            for rate in rates {
                let offset = rate.timestamp.timeIntervalSince(origin)
                print(String(format: "%8.1f s  %5.1f breaths/min  confidence %.2f", offset, rate.bpm, rate.confidence))
            }
            print(median.map { String(format: "median %.1f breaths/min", $0) } ?? "no periodic breathing found")
        }
        return 0
    }

    private static let help = """
        usage: sleepanalysis breathing AUDIO [--accelerometer CSV] [--window SECONDS] [--format json|text]
               sleepanalysis breathing --accelerometer CSV [--window SECONDS] [--format json|text]
        Breathing rate every 30 s over 60-s windows, from breath sounds and/or mattress micro-motion.
        --window sets a shorter window for short clips (20...600 s; estimates every half window).
        Tuning (evaluation only): --peak-fraction F (default 0.7), --alternation-threshold T (default 2).
        """

    private static func usage(_ problem: String) -> Int32 {
        FileHandle.standardError.write(Data("sleepanalysis breathing: \(problem)\n\(help)\n".utf8))
        return 64
    }
}

import Foundation
import SleepAnalysis

let usage = "usage: sleepanalysis-bench events [--hours N]\n"
var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "events" else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
var hours = 1.0
if let index = arguments.firstIndex(of: "--hours"), index + 1 < arguments.count,
    let value = Double(arguments[index + 1])
{
    hours = value
}
do {
    let result = try EventEngineBenchmark.run(hours: hours, model: try EventClassifierModel.bundled())
    let perHour = 3600 / result.audioSeconds
    print(String(format: "events engine: %.3f s CPU per hour of audio (detector), front end %.3f s, %d events",
                 result.detectorSeconds * perHour, result.frontEndSeconds * perHour, result.eventCount))
} catch {
    FileHandle.standardError.write(Data("sleepanalysis-bench: \(error)\n".utf8))
    exit(1)
}

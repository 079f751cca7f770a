import Foundation
import SleepAnalysis

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch (arguments.first, arguments.dropFirst().first) {
    case ("evaluate", "staging"): try EvaluateStagingCommand.run(Array(arguments.dropFirst(2)))
    case ("features", "staging"): try FeaturesStagingCommand.run(Array(arguments.dropFirst(2)))
    default:
        FileHandle.standardError.write(Data("usage: sleepanalysis <command> [options]\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("sleepanalysis: \(error)\n".utf8))
    exit(1)
}

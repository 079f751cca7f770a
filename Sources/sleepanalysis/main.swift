import Foundation
import SleepAnalysis

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "evaluate": try EvaluateCommand.run(Array(arguments.dropFirst()))
    case "features": try FeaturesCommand.run(Array(arguments.dropFirst()))
    default:
        FileHandle.standardError.write(Data("usage: sleepanalysis <evaluate|features> [options]\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("sleepanalysis: \(error)\n".utf8))
    exit(1)
}

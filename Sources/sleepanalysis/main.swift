import Foundation
import SleepAnalysis

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "breathing":
    exit(BreathingCommand.run(Array(arguments.dropFirst())))
default:
    FileHandle.standardError.write(Data("usage: sleepanalysis <command> [options]\n  commands: breathing\n".utf8))
    exit(64)
}

import Foundation
import SleepAnalysis

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case JournalWriterCommand.name:
        exit(try JournalWriterCommand.run(Array(arguments.dropFirst())))
    default:
        FileHandle.standardError.write(Data("usage: sleepanalysis <command> [options]\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("sleepanalysis: \(error)\n".utf8))
    exit(1)
}

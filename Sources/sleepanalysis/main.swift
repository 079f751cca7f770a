// sleepanalysis: the command-line tool. Each command lives in Commands/<Name>Command.swift; list it here.
import Foundation

let commands: [any Command.Type] = [
    SplCommand.self,
    LicenseCommand.self,
]

let arguments = Array(CommandLine.arguments.dropFirst())

// Hidden test helper (not listed in the usage): journals batches until killed.
if arguments.first == JournalWriterCommand.name {
    do {
        exit(try JournalWriterCommand.run(Array(arguments.dropFirst())))
    } catch {
        FileHandle.standardError.write(Data("sleepanalysis: \(error)\n".utf8))
        exit(1)
    }
}

exit(await CommandRunner.run(arguments, commands: commands))

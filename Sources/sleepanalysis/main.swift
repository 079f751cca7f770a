// sleepanalysis: the command-line tool. Each command lives in Commands/<Name>Command.swift; list it here.
import Foundation

let commands: [any Command.Type] = [
    SplCommand.self,
]

exit(await CommandRunner.run(Array(CommandLine.arguments.dropFirst()), commands: commands))

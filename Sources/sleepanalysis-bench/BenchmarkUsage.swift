import Foundation

/// The usage answer every benchmark sub-command gives to a bad command line.
enum BenchmarkUsage {
    /// Prints `sleepanalysis-bench COMMAND: MESSAGE` and the command's usage line to standard error.
    ///
    /// - Parameters:
    ///   - command: The sub-command (`pipeline`, `peer`…), or nil for the front-end benchmark (no sub-command).
    ///   - message: What was wrong.
    ///   - syntax: The sub-command's options, as the usage line shows them.
    /// - Returns: 64, the exit status of a usage error.
    static func fail(_ command: String?, _ message: String, syntax: String) -> Int32 {
        let invocation = (["sleepanalysis-bench"] + (command.map { [$0] } ?? [])).joined(separator: " ")
        FileHandle.standardError.write(Data("\(invocation): \(message)\nusage: \(invocation) \(syntax)\n".utf8))
        return 64
    }
}

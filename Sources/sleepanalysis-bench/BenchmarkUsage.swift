import Foundation

/// The usage answer every benchmark sub-command gives to a bad command line.
enum BenchmarkUsage {
    /// Prints `sleepanalysis-bench COMMAND: MESSAGE` and the command's usage line to standard error.
    ///
    /// - Parameters:
    ///   - command: The sub-command (`pipeline`, `peer`…).
    ///   - message: What was wrong.
    ///   - syntax: The sub-command's options, as the usage line shows them.
    /// - Returns: 64, the exit status of a usage error.
    static func fail(_ command: String, _ message: String, syntax: String) -> Int32 {
        FileHandle.standardError.write(
            Data(
                "sleepanalysis-bench \(command): \(message)\nusage: sleepanalysis-bench \(command) \(syntax)\n".utf8))
        return 64
    }
}

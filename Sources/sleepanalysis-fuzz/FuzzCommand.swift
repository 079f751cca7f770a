import Foundation

/// `sleepanalysis-fuzz`: fuzz harnesses for the package's parsers.
///
/// The normal build is a corpus runner, `sleepanalysis-fuzz run HARNESS FILE|DIR...`, that feeds files through a
/// harness (the seed corpus and regressions in `Tools/fuzz/`, or a crash input to reproduce it);
/// `sleepanalysis-fuzz list` names the harnesses. The fuzzing build (`Tools/fuzz/run.sh`) is a libFuzzer binary
/// instead, its harness chosen by `SLEEPANALYSIS_FUZZ_HARNESS`.
@main
struct FuzzCommand {
    /// The usage text.
    static let usage = """
        usage: sleepanalysis-fuzz list
               sleepanalysis-fuzz run HARNESS FILE|DIR...
        """

    /// Runs the command line.
    static func main() {
        #if FUZZING
            LibFuzzerEntry.start()
        #else
            exit(run(Array(CommandLine.arguments.dropFirst())))
        #endif
    }

    /// Runs one command; returns the exit status (0, 64 for bad usage, 66 for a missing input).
    static func run(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "list":
            for harness in FuzzHarness.all { print("\(harness.name)\t\(harness.summary)") }
            return 0
        case "run" where arguments.count >= 3:
            guard let harness = FuzzHarness.named(arguments[1]) else {
                let names = FuzzHarness.all.map(\.name).joined(separator: ", ")
                return fail("unknown harness '\(arguments[1])' (one of: \(names))", status: 64)
            }
            do {
                let tally = try CorpusRunner.run(harness, on: Array(arguments.dropFirst(2)))
                print("\(harness.name): \(tally.inputs) inputs, \(tally.accepted) accepted, none failed")
                return 0
            } catch {
                return fail("\(error)", status: 66)
            }
        default:
            return fail(usage, status: 64)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data("sleepanalysis-fuzz: \(message)\n".utf8))
        return status
    }
}

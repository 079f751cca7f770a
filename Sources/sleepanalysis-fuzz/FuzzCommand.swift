import CommandLineKit
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

    /// What `list` accepts: nothing.
    static let listSpecification = ArgumentSpecification(usage: usage + "\n")
    /// What `run` accepts: a harness, then one or more files or folders (`--` before a name that starts with `-`).
    static let runSpecification = ArgumentSpecification(
        positionals: ["HARNESS", "FILE|DIR"], allowsExtraPositionals: true, usage: usage + "\n")

    /// Runs one command; returns the exit status (0, 64 for bad usage, 66 for a missing input).
    static func run(_ arguments: [String]) -> Int32 {
        let rest = Array(arguments.dropFirst())
        do {
            switch arguments.first {
            case "list":
                guard try ArgumentParser.parseUnlessHelp(rest, listSpecification) != nil else { return 0 }
                for harness in FuzzHarness.all { print("\(harness.name)\t\(harness.summary)") }
                return 0
            case "run":
                guard let parsed = try ArgumentParser.parseUnlessHelp(rest, runSpecification) else { return 0 }
                return run(harnessNamed: parsed.positionals[0], on: Array(parsed.positionals.dropFirst()))
            case "-h", "--help":
                print(usage)
                return 0
            default:
                return fail(usage, status: ArgumentUsageError.exitStatus)
            }
        } catch {
            return fail("\(error.message)\n\(usage)", status: ArgumentUsageError.exitStatus)
        }
    }

    /// Feeds `paths` through the harness named `name`; returns the exit status (0, 64 for an unknown harness,
    /// 66 for a missing input).
    private static func run(harnessNamed name: String, on paths: [String]) -> Int32 {
        guard let harness = FuzzHarness.named(name) else {
            let names = FuzzHarness.all.map(\.name).joined(separator: ", ")
            return fail("unknown harness '\(name)' (one of: \(names))", status: ArgumentUsageError.exitStatus)
        }
        do {
            let tally = try CorpusRunner.run(harness, on: paths)
            print("\(harness.name): \(tally.inputs) inputs, \(tally.accepted) accepted, none failed")
            return 0
        } catch {
            return fail("\(error)", status: 66)
        }
    }

    private static func fail(_ message: String, status: Int32) -> Int32 {
        FileHandle.standardError.write(Data("sleepanalysis-fuzz: \(message)\n".utf8))
        return status
    }
}

#if FUZZING
    import CLibFuzzer
    import Foundation

    /// The libFuzzer side of the fuzzing build (`-sanitize=fuzzer -DFUZZING`, see `Tools/fuzz/run.sh`): the harness
    /// named by `SLEEPANALYSIS_FUZZ_HARNESS` receives every input libFuzzer makes.
    enum LibFuzzerEntry {
        /// The environment variable naming the harness (libFuzzer has one entry point for all of them).
        static let variable = "SLEEPANALYSIS_FUZZ_HARNESS"

        /// The harness chosen by the environment; `start` checks it before any input runs.
        static let harness: FuzzHarness? = ProcessInfo.processInfo.environment[variable].flatMap {
            FuzzHarness.named($0)
        }

        /// Hands the process to libFuzzer's driver with the command line's arguments (libFuzzer flags, corpus
        /// folders); exits with its status, or 64 when no known harness is named.
        static func start() -> Never {
            guard harness != nil else {
                let names = FuzzHarness.all.map(\.name).joined(separator: ", ")
                FileHandle.standardError.write(Data("set \(variable) to one of: \(names)\n".utf8))
                exit(64)
            }
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in LibFuzzerEntry.testOneInput(data, size) })
        }

        /// Runs the chosen harness on one input; libFuzzer ignores the result.
        static func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
            _ = harness?.run(UnsafeRawBufferPointer(start: data, count: size))
            return 0
        }
    }

    /// The symbol `-sanitize=fuzzer` links libFuzzer's own `main` against; the same callback as `start` gives the
    /// driver.
    @_cdecl("LLVMFuzzerTestOneInput")
    func llvmFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        LibFuzzerEntry.testOneInput(data, size)
    }
#endif

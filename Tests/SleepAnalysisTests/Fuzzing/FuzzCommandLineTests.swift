import Foundation
import XCTest

/// `sleepanalysis-fuzz` reads its command line with the package's shared parser: a wrong one exits 64 with the
/// usage, `--help` prints the usage.
final class FuzzCommandLineTests: XCTestCase {
    func test_aWrongCommandLine_exits64WithTheUsage() throws {
        let cases: [(arguments: [String], message: String)] = [
            ([], "sleepanalysis-fuzz list"),
            (["fuzz"], "sleepanalysis-fuzz list"),
            (["run"], "missing argument: HARNESS, FILE|DIR"),
            (["run", "sensor-csv"], "missing argument: FILE|DIR"),
            (["run", "--jobs", "2", "x", "y"], "unknown option --jobs"),
            (["run", "no-such-harness", "/tmp"], "unknown harness 'no-such-harness'"),
        ]
        for (arguments, message) in cases {
            let run = try runCommandLineTool(arguments, tool: "sleepanalysis-fuzz")
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
        }
    }

    func test_help_printsTheUsage() throws {
        for arguments in [["--help"], ["run", "--help"], ["list", "-h"]] {
            let run = try runCommandLineTool(arguments, tool: "sleepanalysis-fuzz")
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardOutput.contains("sleepanalysis-fuzz run HARNESS FILE|DIR..."), "\(arguments)")
        }
    }
}

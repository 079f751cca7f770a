import Foundation
import XCTest

/// Every `sleepanalysis-bench` sub-command answers a bad command line with exit 64 and its usage line, at once,
/// instead of running a benchmark on a value it did not understand.
final class BenchmarkUsageTests: XCTestCase {
    func test_events_and_vitals_reject_bad_hours_and_unknown_options_with_their_usage_line() throws {
        let cases: [(arguments: [String], message: String, usage: String)] = [
            (["events", "--hours", "abc"], "--hours: a positive number", "sleepanalysis-bench events [--hours N"),
            (["events", "--hours", "-2"], "--hours: a positive number", "sleepanalysis-bench events [--hours N"),
            (["events", "--audio"], "--audio needs a value", "sleepanalysis-bench events [--hours N"),
            (["events", "--modle", "x.bin"], "unknown option --modle", "sleepanalysis-bench events [--hours N"),
            (["vitals", "--hours", "inf"], "--hours: a positive number", "sleepanalysis-bench vitals [--hours N]"),
            (["vitals", "--hourz", "2"], "unknown option --hourz", "sleepanalysis-bench vitals [--hours N]"),
            (["pipeline", "--hours", "0"], "--hours: a positive number", "sleepanalysis-bench pipeline"),
        ]
        for (arguments, message, usage) in cases {
            let run = try runCommandLineTool(arguments, tool: "sleepanalysis-bench")
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains(message), "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains("usage: \(usage)"), "\(arguments): \(run.standardError)")
            XCTAssertEqual(run.standardOutput, "", "\(arguments)")
        }
    }

    func test_every_benchmark_reads_name_equals_value_and_answers_help_with_its_usage_line() throws {
        let wrong = try runCommandLineTool(["vitals", "--hours=abc"], tool: "sleepanalysis-bench")
        XCTAssertEqual(wrong.status, 64, wrong.standardError)
        XCTAssertTrue(wrong.standardError.contains("--hours: a positive number"), wrong.standardError)
        let extra = try runCommandLineTool(["queue", "surplus"], tool: "sleepanalysis-bench")
        XCTAssertEqual(extra.status, 64, extra.standardError)
        XCTAssertTrue(extra.standardError.contains("unexpected argument: surplus"), extra.standardError)
        let frontEnd = try runCommandLineTool(["--block", "0"], tool: "sleepanalysis-bench")
        XCTAssertEqual(frontEnd.status, 64, frontEnd.standardError)
        XCTAssertTrue(frontEnd.standardError.contains("sleepanalysis-bench: --block: frames per read, positive"))
        XCTAssertTrue(frontEnd.standardError.contains("usage: sleepanalysis-bench [--hours N]"), frontEnd.standardError)
        for command in ["events", "vitals", "pipeline", "profile", "live", "peer", "queue"] {
            let help = try runCommandLineTool([command, "--help"], tool: "sleepanalysis-bench")
            XCTAssertEqual(help.status, 0, "\(command): \(help.standardError)")
            XCTAssertTrue(help.standardOutput.hasPrefix("usage: sleepanalysis-bench \(command) "), help.standardOutput)
        }
    }

    func test_events_with_a_missing_model_file_names_the_file() throws {
        let run = try runCommandLineTool(
            ["events", "--hours", "0.01", "--model", "/nonexistent/events.bin"], tool: "sleepanalysis-bench")
        XCTAssertEqual(run.status, 1, run.standardError)
        XCTAssertTrue(
            run.standardError.contains("The model is unavailable: events (/nonexistent/events.bin"), run.standardError)
    }
}

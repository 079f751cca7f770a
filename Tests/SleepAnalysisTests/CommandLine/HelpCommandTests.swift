import Foundation
import SleepAnalysis
import TestSupport
import XCTest

/// `help COMMAND`, `--help`/`-h` on every command and group, `--version`, short aliases and one-line usage errors,
/// as swift-argument-parser tools behave.
final class HelpCommandTests: XCTestCase {
    func test_help_command_prints_the_help_of_that_command_or_sub_command() throws {
        for words in [["analyze"], ["evaluate", "events"], ["features", "staging"], ["license", "verify"]] {
            let output = try runCommandLineTool(["help"] + words)
            XCTAssertEqual(output.status, 0, output.standardError)
            XCTAssertTrue(
                output.standardOutput.hasPrefix("usage: sleepanalysis \(words.joined(separator: " "))"),
                output.standardOutput)
        }
        let unknown = try runCommandLineTool(["help", "frobnicate"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.standardError.split(separator: "\n").count, 2, unknown.standardError)
    }

    func test_help_flags_work_on_every_command_group_and_sub_command() throws {
        let commands = [
            ["analyze"], ["record"], ["spl"], ["breathing"], ["history"], ["export"], ["models"], ["evaluate"],
            ["features"], ["license"], ["completion"], ["evaluate", "events"], ["evaluate", "staging"],
            ["evaluate", "composed-staging"], ["evaluate", "stereo"], ["features", "events"], ["features", "staging"],
            ["license", "keygen"],
            ["license", "issue"], ["license", "verify"],
        ]
        for words in commands {
            for flag in ["--help", "-h"] {
                let output = try runCommandLineTool(words + [flag])
                XCTAssertEqual(output.status, 0, "\(words) \(flag): \(output.standardError)")
                XCTAssertTrue(
                    output.standardOutput.hasPrefix("usage: sleepanalysis \(words[0])"),
                    "\(words) \(flag): \(output.standardOutput)")
            }
        }
        let overview = try runCommandLineTool(["--help"])
        XCTAssertTrue(overview.standardOutput.contains("completion"), overview.standardOutput)
    }

    func test_version_prints_the_library_version() throws {
        let output = try runCommandLineTool(["--version"])
        XCTAssertEqual(output.status, 0)
        XCTAssertEqual(output.standardOutput, SleepAnalysisVersion.current + "\n")
    }

    func test_short_aliases_act_as_their_long_options_and_each_help_shows_them() throws {
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_quiet_room.flac").path
        let short = try runCommandLineTool(["spl", clip, "-f", "json"])
        let long = try runCommandLineTool(["spl", clip, "--format", "json"])
        XCTAssertEqual(short.status, 0, short.standardError)
        XCTAssertEqual(short.standardOutput, long.standardOutput)
        XCTAssertTrue(short.standardOutput.hasPrefix("{"), short.standardOutput)
        let help = try runCommandLineTool(["analyze", "--help"])
        for alias in ["-f, --format", "-q, --quiet", "-s, --store"] {
            XCTAssertTrue(help.standardOutput.contains(alias), alias)
        }
        let record = try runCommandLineTool(["help", "record"])
        XCTAssertTrue(record.standardOutput.contains("-o, --out"), record.standardOutput)
    }

    func test_a_usage_error_is_one_line_and_a_hint_to_the_commands_help() throws {
        let cases: [([String], String)] = [
            (
                ["analyze", "night.ogg", "--bogus"],
                "Error: unknown option --bogus\nHelp: sleepanalysis analyze --help\n"
            ),
            (["analyze"], "Error: missing argument: AUDIO\nHelp: sleepanalysis analyze --help\n"),
            (
                ["evaluate", "events", "-z"],
                "Error: unknown option -z\nHelp: sleepanalysis evaluate events --help\n"
            ),
            (["frobnicate"], "Error: unknown command 'frobnicate'\nHelp: sleepanalysis --help\n"),
            (
                ["breathing", "a.wav", "b.wav"],
                "Error: unexpected argument: b.wav\nHelp: sleepanalysis breathing --help\n"
            ),
        ]
        for (arguments, expected) in cases {
            let output = try runCommandLineTool(arguments)
            XCTAssertEqual(output.status, 64, "\(arguments)")
            XCTAssertEqual(output.standardError, expected)
            XCTAssertEqual(output.standardOutput, "")
        }
    }
}

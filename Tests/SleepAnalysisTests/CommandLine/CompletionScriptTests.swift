import Foundation
import XCTest

/// `sleepanalysis completion bash|zsh|fish`: scripts generated from the command table that complete commands,
/// sub-commands and options in the shells themselves.
final class CompletionScriptTests: XCTestCase {
    /// Writes the script for `shell` to a file.
    private func script(_ shell: String) throws -> URL {
        let output = try runCommandLineTool(["completion", shell])
        XCTAssertEqual(output.status, 0, output.standardError)
        let file = try makeTemporaryDirectory(self).appendingPathComponent("sleepanalysis.\(shell)")
        try Data(output.standardOutput.utf8).write(to: file)
        return file
    }

    /// Runs `program arguments…` and returns its status and standard output, or nil when the shell is missing.
    private func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String)? {
        guard
            let path = ["/usr/bin", "/bin", "/usr/local/bin"].map({ "\($0)/\(program)" })
                .first(where: FileManager.default.isExecutableFile(atPath:))
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// What `_sleepanalysis` offers in bash for the words typed so far (the last one is completed).
    private func bashCompletions(_ file: URL, _ words: [String]) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let command =
            "source '\(file.path)'; COMP_WORDS=(sleepanalysis \(quoted)); COMP_CWORD=\(words.count); "
            + "_sleepanalysis; printf '%s\\n' \"${COMPREPLY[@]}\""
        let result = try XCTUnwrap(try run("bash", ["-c", command]))
        XCTAssertEqual(result.status, 0)
        return result.output.split(separator: "\n").map(String.init)
    }

    func test_bash_script_completes_commands_sub_commands_and_options() throws {
        let file = try script("bash")
        XCTAssertEqual(try bashCompletions(file, ["ana"]), ["analyze"])
        XCTAssertEqual(
            try bashCompletions(file, ["evaluate", ""]).prefix(4), ["events", "staging", "composed-staging", "stereo"])
        XCTAssertEqual(try bashCompletions(file, ["analyze", "night.ogg", "--fo"]), ["--format"])
        XCTAssertTrue(try bashCompletions(file, ["analyze", "night.ogg", "-"]).contains("-q"))
        XCTAssertTrue(try bashCompletions(file, ["evaluate", "events", "--"]).contains("--manifest"))
        XCTAssertEqual(try bashCompletions(file, ["completion", "z"]), ["zsh"])
        XCTAssertEqual(try bashCompletions(file, ["help", "hist"]), ["history"])
        // After an option that takes a value, file names: none match this prefix.
        XCTAssertEqual(try bashCompletions(file, ["analyze", "--store", "/nonexistent-folder/--fo"]), [])
    }

    func test_zsh_script_is_valid_zsh_and_names_every_command() throws {
        let file = try script("zsh")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("#compdef sleepanalysis\n"))
        for word in ["'analyze:", "'evaluate events'", "--manifest", "--format", "-f"] {
            XCTAssertTrue(text.contains(word), word)
        }
        guard let check = try run("zsh", ["-n", file.path]) else { throw XCTSkip("zsh is not installed") }
        XCTAssertEqual(check.status, 0)
    }

    func test_fish_script_is_valid_fish_and_completes_in_fish() throws {
        let file = try script("fish")
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains("-l manifest -r"), text)
        guard let check = try run("fish", ["-n", file.path]) else { throw XCTSkip("fish is not installed") }
        XCTAssertEqual(check.status, 0)
        let commands = try XCTUnwrap(
            try run("fish", ["-c", "source '\(file.path)'; complete -C 'sleepanalysis ana'"]))
        XCTAssertTrue(commands.output.hasPrefix("analyze\t"), commands.output)
        let options = try XCTUnwrap(
            try run("fish", ["-c", "source '\(file.path)'; complete -C 'sleepanalysis evaluate events --ma'"]))
        XCTAssertTrue(options.output.hasPrefix("--manifest"), options.output)
    }

    func test_an_unknown_shell_is_a_usage_error() throws {
        let output = try runCommandLineTool(["completion", "tcsh"])
        XCTAssertEqual(output.status, 64)
        XCTAssertTrue(output.standardError.hasPrefix("Error: unknown shell 'tcsh'"), output.standardError)
    }
}

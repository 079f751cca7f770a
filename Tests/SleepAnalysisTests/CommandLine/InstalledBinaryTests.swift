import Foundation
import TestSupport
import XCTest

/// The built binary copied elsewhere finds its models in `PREFIX/share/sleepanalysis/Models` (the layout of
/// `Tools/install.sh`), also through a symbolic link, and without them fails with a one-line typed error instead
/// of crashing. (`Tools/check-install.sh` runs the install script itself in CI.)
final class InstalledBinaryTests: XCTestCase {
    /// Runs `tool` with `arguments` from `directory` with its own data and state folders.
    private func run(_ tool: URL, _ arguments: [String], in directory: URL) throws -> (Process, String, String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        process.environment = environment
        let out = directory.appendingPathComponent("out.txt")
        let err = directory.appendingPathComponent("err.txt")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return (
            process, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8)
        )
    }

    func test_a_copied_binary_finds_its_models_under_share_and_fails_cleanly_without_them() throws {
        let built = try builtCommandLineTool()
        let manager = FileManager.default
        let root = try makeTemporaryDirectory(self)
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        let arguments = ["analyze", clip, "--no-store", "--quiet", "--format", "json"]

        // Alone: a typed one-line error naming where it looked, no crash.
        let alone = root.appendingPathComponent("alone/bin")
        try manager.createDirectory(at: alone, withIntermediateDirectories: true)
        try manager.copyItem(at: built, to: alone.appendingPathComponent("sleepanalysis"))
        let (lonely, _, lonelyError) = try run(alone.appendingPathComponent("sleepanalysis"), arguments, in: root)
        XCTAssertEqual(lonely.terminationReason, .exit, lonelyError)
        XCTAssertNotEqual(lonely.terminationStatus, 0)
        XCTAssertTrue(lonelyError.contains("no bundled models folder"), lonelyError)
        XCTAssertTrue(lonelyError.contains("share/sleepanalysis/Models"), lonelyError)
        XCTAssertFalse(lonelyError.contains("Fatal error"), lonelyError)
        XCTAssertTrue(lonelyError.contains("sleepanalysis analyze: The model is unavailable: events"), lonelyError)

        // Installed: PREFIX/bin and PREFIX/share/sleepanalysis/Models, run through a link from elsewhere.
        let prefix = root.appendingPathComponent("prefix")
        try manager.createDirectory(
            at: prefix.appendingPathComponent("share/sleepanalysis"), withIntermediateDirectories: true)
        try manager.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try manager.copyItem(at: built, to: prefix.appendingPathComponent("bin/sleepanalysis"))
        try manager.copyItem(
            at: built.deletingLastPathComponent().appendingPathComponent(
                "SleepAnalysis_SleepAnalysis.resources/Models"),
            to: prefix.appendingPathComponent("share/sleepanalysis/Models"))
        let link = root.appendingPathComponent("sleepanalysis-link")
        try manager.createSymbolicLink(at: link, withDestinationURL: prefix.appendingPathComponent("bin/sleepanalysis"))
        let elsewhere = root.appendingPathComponent("elsewhere")
        try manager.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        for tool in [prefix.appendingPathComponent("bin/sleepanalysis"), link] {
            let (installed, output, error) = try run(tool, arguments, in: elsewhere)
            XCTAssertEqual(installed.terminationStatus, 0, error)
            XCTAssertTrue(output.contains("\"sessionId\""), output)
        }
    }
}

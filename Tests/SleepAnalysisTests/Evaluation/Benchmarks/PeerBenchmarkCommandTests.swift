import Foundation
import SleepAnalysisEvaluation
import XCTest

/// `sleepanalysis-bench peer` stops at once, with the install command, when Python or librosa is missing.
final class PeerBenchmarkCommandTests: XCTestCase {
    func test_peer_withoutPythonOrLibrosa_exits69NamingTheInstallCommand_andWithABadOptionPrintsUsage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bench-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let audio = directory.appendingPathComponent("night.wav")
        try SleepAnalysisEvaluation.SyntheticNight.write(to: audio, duration: 1, sampleRate: 16_000, format: .wav)
        // Given no interpreter at the given path
        let missing = try runCommandLineTool(
            ["peer", "--input", audio.path, "--python", "/nonexistent/bin/python"], tool: "sleepanalysis-bench")
        // Then exit 69 and the install command
        XCTAssertEqual(missing.status, 69, missing.standardError)
        XCTAssertTrue(missing.standardError.contains("no Python interpreter /nonexistent/bin/python"))
        XCTAssertTrue(missing.standardError.contains(PythonPeerError.installCommand), missing.standardError)
        XCTAssertEqual(missing.standardOutput, "")

        // Given a Python without librosa (a fresh virtual environment), named by SLEEPANALYSIS_PYTHON
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/local/bin:/usr/bin"
        let make = Process()
        make.executableURL = try PythonPeer.interpreter("python3", search: path)
        make.arguments = ["-m", "venv", "--without-pip", directory.appendingPathComponent("venv").path]
        try make.run()
        make.waitUntilExit()
        let python = directory.appendingPathComponent("venv/bin/python").path
        var environment = ProcessInfo.processInfo.environment
        environment["SLEEPANALYSIS_PYTHON"] = python
        let noLibrosa = try runCommandLineTool(
            ["peer", "--input", audio.path], environment: environment, tool: "sleepanalysis-bench")
        // Then exit 69, naming the module, the interpreter and the install command, before any analysis
        XCTAssertEqual(noLibrosa.status, 69, noLibrosa.standardError)
        XCTAssertTrue(noLibrosa.standardError.contains("\(python) has no module librosa"), noLibrosa.standardError)
        XCTAssertTrue(noLibrosa.standardError.contains(PythonPeerError.installCommand))
        XCTAssertEqual(noLibrosa.standardOutput, "")

        // And a bad option gives the usage line
        let usage = try runCommandLineTool(["peer", "--channels", "3"], tool: "sleepanalysis-bench")
        XCTAssertEqual(usage.status, 64)
        XCTAssertTrue(usage.standardError.contains("--channels: 1 or 2"), usage.standardError)
        XCTAssertTrue(usage.standardError.contains("usage: sleepanalysis-bench peer"), usage.standardError)
    }
}

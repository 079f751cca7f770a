import Foundation
import TestSupport
import XCTest

/// A new user's first hour, as a test: a fresh package depends on SleepAnalysis by the manifest GettingStarted
/// shows (its URL pointed at a clone of this repository's committed `HEAD`), builds the article's program with
/// warnings as errors, and runs it on the demo night to a result under a development licence, with no
/// key-minting step. The program links only the `SleepAnalysis` product, so it must not link libpq.
final class ConsumerPackageTests: XCTestCase {
    private var article: String {
        get throws {
            try String(
                contentsOf: FixturePaths.repositoryRoot.appendingPathComponent(
                    "Sources/SleepAnalysis/Docs.docc/GettingStarted.md"),
                encoding: .utf8)
        }
    }

    /// The article's Swift code blocks, in order.
    private func swiftBlocks() throws -> [String] {
        try article.components(separatedBy: "```swift\n").dropFirst().map {
            $0.components(separatedBy: "```").first ?? ""
        }
    }

    func test_aFreshPackage_resolvesByTheDocumentedLine_buildsTheArticlesProgram_andRunsItToAResult() throws {
        let work = try makeTemporaryDirectory(self)
        let clone = work.appendingPathComponent("SleepAnalysis")
        try run("git", ["clone", "--quiet", FixturePaths.repositoryRoot.path, clone.path], in: work)
        // The documented line follows `main`: the clone has it at the commit under test, whatever the
        // repository's own branch is called.
        try run("git", ["checkout", "--quiet", "-B", "main"], in: clone)

        let blocks = try swiftBlocks()
        let manifest = try XCTUnwrap(blocks.first { $0.contains("swift-tools-version") }, "no manifest block")
        let documentedURL = "https://git.example.com/sleepanalysis/SleepAnalysis.git"
        XCTAssertTrue(manifest.contains(".package(url: \"\(documentedURL)\", branch: \"main\")"), manifest)
        let consumer = work.appendingPathComponent("NightReport")
        let sources = consumer.appendingPathComponent("Sources/NightReport")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try manifest.replacingOccurrences(of: documentedURL, with: clone.absoluteString)
            .write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let program = try ["func analyzeNight(", "func runNightReport(", "@main"].map { marker in
            try XCTUnwrap(blocks.first { $0.contains(marker) }, "no block with \(marker)")
        }
        try program.joined(separator: "\n").write(
            to: sources.appendingPathComponent("NightReport.swift"), atomically: true, encoding: .utf8)

        let build = try run(
            "swift", ["build", "-Xswiftc", "-warnings-as-errors"], in: consumer, timeout: 1_200)
        XCTAssertFalse(build.contains("warning:"), build)
        let binary = consumer.appendingPathComponent(".build/debug/NightReport")

        let state = work.appendingPathComponent("xdg")
        let output = try run(
            binary.path, [FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path], in: work,
            environment: ["XDG_STATE_HOME": state.path + "/state", "XDG_DATA_HOME": state.path + "/data"],
            timeout: 300)
        XCTAssertTrue(output.contains("Licensed features:"), output)
        XCTAssertTrue(output.contains("Total sleep:"), output)
        XCTAssertTrue(output.contains("Events: "), output)

        let libraries = try run("ldd", [binary.path], in: work)
        XCTAssertTrue(libraries.contains("libsndfile"), libraries)
        XCTAssertFalse(libraries.contains("libpq"), "an app that links only SleepAnalysis links libpq:\n\(libraries)")
    }

    /// Runs `command` with `arguments` in `directory`; fails the test unless it exits 0 within `timeout`.
    ///
    /// - Returns: Standard output and standard error together.
    @discardableResult
    private func run(
        _ command: String, _ arguments: [String], in directory: URL, environment extra: [String: String] = [:],
        timeout: TimeInterval = 120
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let log = directory.appendingPathComponent(".\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? FileManager.default.removeItem(at: log) }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try handle.close()
        let output = try String(contentsOf: log, encoding: .utf8)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ConsumerStepFailed(step: ([command] + arguments).joined(separator: " "), output: output)
        }
        return output
    }

    private struct ConsumerStepFailed: Error, CustomStringConvertible {
        var step: String
        var output: String
        var description: String { "\(step) failed:\n\(output.suffix(4_000))" }
    }
}

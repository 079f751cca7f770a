import Foundation
import XCTest

/// An executable product (`sleepanalysis` by default) built beside the test bundle, or a skip when it was not built.
func builtCommandLineTool(named name: String = "sleepanalysis") throws -> URL {
    #if os(Linux)
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let products = testBinary.deletingLastPathComponent()
    #else
        let products = Bundle(for: SessionJournalCrashTests.self).bundleURL.deletingLastPathComponent()
    #endif
    let tool = products.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: tool.path) else {
        throw XCTSkip("needs the \(name) product built beside the tests (swift build --build-tests)")
    }
    return tool
}

/// What a finished run of the command-line tool printed.
struct ToolOutput {
    /// The exit status.
    var status: Int32
    /// Standard output.
    var standardOutput: String
    /// Standard error.
    var standardError: String
}

/// The state directory every tool run of this test process shares when the test gives none: a folder of this
/// process under the temporary directory.
let testRunStateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "sa-tool-state-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")

/// Runs the command-line tool (or another executable product, `tool`) to completion (bounded by `timeout`),
/// capturing its output. Without `XDG_DATA_HOME` in `environment`, the tool's default data folder (the session
/// store) is a temporary folder; without `XDG_STATE_HOME`, its state directory is `testRunStateDirectory`.
func runCommandLineTool(
    _ arguments: [String], environment: [String: String]? = nil, timeout: TimeInterval = 20,
    tool: String = "sleepanalysis"
) throws -> ToolOutput {
    let process = Process()
    process.executableURL = try builtCommandLineTool(named: tool)
    process.arguments = arguments
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sa-tool-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // `analyze` saves in the default session store: unless the test chose one, that is a folder of this run.
    var chosen = environment ?? ProcessInfo.processInfo.environment
    if chosen["XDG_DATA_HOME"] == nil { chosen["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path }
    // The default state directory (licence cache, an unfinished night's journal) is this test run's own: two runs on
    // one machine never resume or refuse each other's nights; calls within a run share it, as one user's would.
    if chosen["XDG_STATE_HOME"] == nil { chosen["XDG_STATE_HOME"] = testRunStateDirectory.path }
    process.environment = chosen
    let outURL = directory.appendingPathComponent("out")
    let errURL = directory.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTFail("\(tool) \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
    }
    process.waitUntilExit()
    try out.close()
    try err.close()
    return ToolOutput(
        status: process.terminationStatus,
        standardOutput: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
        standardError: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// `Tools/deploy/sleepanalysis-worker.service`: `systemd-analyze verify` accepts it (with the built tool in
/// `ExecStart`), it drains on stop (SIGTERM to the worker alone, a stop timeout longer than the drain), and the worker
/// accepts its command line: started as the unit starts it, on a database that is not there, it waits, and SIGTERM
/// ends it with exit 0.
final class WorkerSystemdUnitTests: XCTestCase {
    private var unit: String {
        get throws {
            try String(
                contentsOf: FixturePaths.repositoryRoot.appendingPathComponent(
                    "Tools/deploy/sleepanalysis-worker.service"),
                encoding: .utf8)
        }
    }

    /// The value of `key=` in the unit (continuation lines joined).
    private func value(_ key: String) throws -> String? {
        let joined = try unit.replacingOccurrences(of: "\\\n", with: " ")
        return joined.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map {
            String($0.dropFirst(key.count + 1))
        }
    }

    func test_systemdAnalyzeVerify_acceptsTheUnit() throws {
        let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        guard FileManager.default.isExecutableFile(atPath: analyze.path) else {
            throw XCTSkip("needs systemd-analyze (Debian package systemd, Tools/install-dependencies.sh)")
        }
        let directory = try makeTemporaryDirectory(self)
        let copy = directory.appendingPathComponent("sleepanalysis-worker.service")
        try Data(
            try unit.replacingOccurrences(of: "/usr/local/bin/sleepanalysis", with: try builtCommandLineTool().path)
                .utf8
        ).write(to: copy)
        let process = Process()
        process.executableURL = analyze
        process.arguments = ["verify", "--man=no", copy.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
        XCTAssertEqual(output, "", "no warning either")
    }

    func test_theUnitDrainsOnStop_andItsCommandLineIsTheWorkers() async throws {
        XCTAssertEqual(try value("KillSignal"), "SIGTERM")
        XCTAssertEqual(try value("KillMode"), "mixed", "SIGTERM to the worker alone, SIGKILL to all at the timeout")
        let execStart = try XCTUnwrap(try value("ExecStart")).split(separator: " ").map(String.init)
        let drain = try XCTUnwrap(execStart.firstIndex(of: "--drain-seconds").flatMap { Double(execStart[$0 + 1]) })
        let timeout = try XCTUnwrap(try value("TimeoutStopSec").flatMap(Double.init))
        XCTAssertGreaterThan(timeout, drain, "systemd waits for the drain before SIGKILL")
        XCTAssertNil(try value("ExecStart")?.range(of: "--database "), "no URL on the command line")
        XCTAssertEqual(try value("Environment"), "SLEEPANALYSIS_DATABASE_URL_FILE=%d/database-url")

        // The unit's command line, on a database URL in a file (as the credential gives it) that nothing answers.
        let directory = try makeTemporaryDirectory(self)
        let urlFile = directory.appendingPathComponent("database-url")
        try Data("postgresql://worker:secret@127.0.0.1:9/sleep?connect_timeout=1\n".utf8).write(to: urlFile)
        let arguments = execStart.dropFirst().map {
            // Port 0 for the metrics: the unit's fixed port may be taken on a test machine.
            $0.replacingOccurrences(of: "%S", with: directory.path).replacingOccurrences(
                of: "/srv/nights", with: directory.path
            ).replacingOccurrences(of: "127.0.0.1:9464", with: "127.0.0.1:0")
        }
        let process = Process()
        process.executableURL = try builtCommandLineTool()
        process.arguments = Array(arguments)
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = nil
        environment["SLEEPANALYSIS_DATABASE_URL_FILE"] = urlFile.path
        process.environment = environment
        let log = directory.appendingPathComponent("worker.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try await Task.sleep(nanoseconds: 2_500_000_000)
        XCTAssertTrue(process.isRunning, "waiting for the database, not exited")
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        XCTAssertFalse(process.isRunning)
        XCTAssertEqual(process.terminationStatus, 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        XCTAssertTrue(text.contains("waiting for the database"), text)
        XCTAssertFalse(text.contains("secret"), "the password stays out of the log")
    }
}

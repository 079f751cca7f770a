import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Output that cannot be written is an error, not a lost result: each command whose standard output is a full
/// device (`/dev/full`) exits 74 (`EX_IOERR`) with the reason on standard error, in every format.
final class OutputFailureCommandTests: XCTestCase {
    /// Runs the tool with standard output on `/dev/full`; returns its exit status and standard error.
    private func runIntoAFullDevice(_ arguments: [String]) throws -> (status: Int32, standardError: String) {
        let process = Process()
        process.executableURL = try builtCommandLineTool(named: "sleepanalysis")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = try makeTemporaryDirectory(self).path
        process.environment = environment
        let full = try XCTUnwrap(FileHandle(forWritingAtPath: "/dev/full"))
        let errors = Pipe()
        process.standardOutput = full
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: message, as: UTF8.self))
    }

    func test_analyze_spl_and_breathing_intoAFullDevice_exit74_inEveryFormat() throws {
        let night = FixturePaths.fixtures.appendingPathComponent("night_short.ogg").path
        let clip = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        var runs: [[String]] = []
        for format in ["json", "text", "csv"] {
            runs.append([
                "analyze", night, "--start", "2026-12-01T23:00:00Z", "--no-store", "--quiet", "--format", format,
            ])
        }
        for format in ["json", "text"] {
            runs.append(["spl", clip, "--format", format])
            runs.append(["breathing", clip, "--format", format])
        }
        for arguments in runs {
            let run = try runIntoAFullDevice(arguments)
            XCTAssertEqual(run.status, 74, "\(arguments): \(run.standardError)")
            XCTAssertTrue(run.standardError.contains("cannot write to standard output"), run.standardError)
        }
    }

    func test_history_and_export_intoAFullDevice_exit74() throws {
        let store = try makeTemporaryDirectory(self).appendingPathComponent("store")
        try SessionStore(directory: store).save(SessionStoreFixtures.night(startingHoursAfter: 22))
        for arguments in [
            ["history", "--store", store.path], ["history", "--store", store.path, "--format", "json"],
            ["export", "--healthkit", "--store", store.path],
            ["export", "--healthkit", "--store", store.path, "--format", "csv"],
        ] {
            let run = try runIntoAFullDevice(arguments)
            XCTAssertEqual(run.status, 74, "\(arguments): \(run.standardError)")
        }
    }

    func test_analyzeOutputFiles_thatCannotBeWritten_exit74_andTheNightIsStored() throws {
        let night = FixturePaths.fixtures.appendingPathComponent("clip_breathing_15bpm.ogg").path
        for option in ["--hypnogram", "--report"] {
            let directory = try makeTemporaryDirectory(self)
            let store = directory.appendingPathComponent("store").path
            let output = try runCommandLineTool(
                [
                    "analyze", night, "--start", "2026-12-01T23:00:00Z", "--quiet", "--store", store,
                    "--storage", directory.appendingPathComponent("state").path, option, "/dev/full",
                ], timeout: 60)
            XCTAssertEqual(output.status, 74, "\(option): \(output.standardError)")
            XCTAssertTrue(output.standardError.contains("cannot write /dev/full"), output.standardError)
            let history = try runCommandLineTool(["history", "--store", store, "--format", "json"])
            XCTAssertTrue(history.standardOutput.contains("sessionId"), "\(option): \(history.standardOutput)")
        }
    }
}

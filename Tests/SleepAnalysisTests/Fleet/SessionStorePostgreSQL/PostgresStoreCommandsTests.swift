import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// `sleepanalysis history` and `export --healthkit` on the PostgreSQL session store, reading the nights a worker
/// finished through the queue; no password ever reaches the output.
final class PostgresStoreCommandsTests: NightQueueTestCase {
    private let subject = "subject-9"

    /// A night finished through the queue as a worker finishes it (claim, then complete with its result).
    private func finishNight() async throws -> AnalysisResult {
        let night = SessionStoreFixtures.night(startingHoursAfter: 22)
        _ = try await queue.submit(
            NightSubmission(
                audio: URL(fileURLWithPath: "/nights/9.flac"), startTime: night.startTime, subjectId: subject))
        let claimed = try await queue.claim(worker: "w1", leaseDuration: 30)
        let lease = try XCTUnwrap(claimed)
        let isCompleted = try await queue.complete(lease, result: night, worker: "w1")
        XCTAssertTrue(isCompleted)
        return night
    }

    private var url: String { testDatabase.address.connectionString }

    /// The test cluster's password (to check that no output shows it).
    private var password: String { URLComponents(string: url)?.password ?? "" }

    func test_history_withDatabase_listsTheNightsWorkersFinished() async throws {
        let night = try await finishNight()
        let output = try runCommandLineTool(["history", "--database", url, "--subject", subject, "--format", "json"])
        XCTAssertEqual(output.status, 0, output.standardError)
        let object = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        let listed = try XCTUnwrap(object?["nights"] as? [[String: Any]])
        XCTAssertEqual(listed.compactMap { $0["sessionId"] as? String }, [night.sessionId.uuidString])
        XCTAssertEqual(listed.first?["timeInBed"] as? Double, 360)
        // Another subject has none
        let other = try runCommandLineTool(["history", "--database", url, "--subject", "subject-10"])
        XCTAssertEqual(other.status, 0, other.standardError)
        XCTAssertEqual(other.standardOutput, "no nights in this range\n")
        XCTAssertFalse((output.standardError + other.standardError).contains(password))
    }

    func test_export_healthkit_readsTheDatabaseFromTheEnvironment() async throws {
        let night = try await finishNight()
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = url
        let output = try runCommandLineTool(
            ["export", "--healthkit", "--subject", subject, "--format", "csv"], environment: environment)
        XCTAssertEqual(output.status, 0, output.standardError)
        let lines = output.standardOutput.split(separator: "\n")
        XCTAssertEqual(lines.first, "session_id,value,value_name,start_date,end_date,time_zone")
        // The inBed sample and one per stage run
        XCTAssertEqual(lines.count, 1 + 1 + night.sleepStageIntervals.count)
        XCTAssertTrue(lines.dropFirst().allSatisfy { $0.hasPrefix(night.sessionId.uuidString + ",") })
    }

    func test_badDatabaseOptions_areUsageErrors_aFailedLoginIs77_anOutage69_andNoPasswordShows() throws {
        let missingSubject = try runCommandLineTool(["history", "--database", url])
        XCTAssertEqual(missingSubject.status, 64)
        XCTAssertTrue(missingSubject.standardError.contains("--subject"), missingSubject.standardError)
        let both = try runCommandLineTool([
            "export", "--healthkit", "--store", "/tmp", "--database", url, "--subject", "s",
        ])
        XCTAssertEqual(both.status, 64)
        XCTAssertFalse(both.standardError.contains(password))

        var wrong = try XCTUnwrap(URLComponents(string: url))
        wrong.password = "not-the-password-\(UUID().uuidString.prefix(8))"
        let refused = try runCommandLineTool(
            ["history", "--database", try XCTUnwrap(wrong.string), "--subject", subject], timeout: 30)
        XCTAssertEqual(refused.status, 77, "a refused login is EX_NOPERM, as the queue commands answer")
        XCTAssertTrue(refused.standardError.contains("authentication failed"), refused.standardError)
        var unreachable = try XCTUnwrap(URLComponents(string: url))
        unreachable.port = 1
        let down = try runCommandLineTool(
            ["export", "--healthkit", "--database", try XCTUnwrap(unreachable.string), "--subject", subject],
            timeout: 30)
        XCTAssertEqual(down.status, 69, "a database that cannot be reached is EX_UNAVAILABLE: \(down.standardError)")
        XCTAssertFalse(down.standardError.contains(password))
        XCTAssertFalse(refused.standardError.contains(try XCTUnwrap(wrong.password)), refused.standardError)
        XCTAssertFalse(refused.standardError.contains(password))
    }

    func test_theURL_fromAFile_keepsThePasswordOffTheCommandLine_andAPasswordInArgvIsWarnedOf() async throws {
        let night = try await finishNight()
        let file = directory.url.appendingPathComponent("database-url")
        try Data((url + "\n").utf8).write(to: file)
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = nil
        let fromFile = try runCommandLineTool(
            ["history", "--database-file", file.path, "--subject", subject, "--format", "json"],
            environment: environment)
        XCTAssertEqual(fromFile.status, 0, fromFile.standardError)
        XCTAssertTrue(fromFile.standardOutput.contains(night.sessionId.uuidString), fromFile.standardOutput)
        XCTAssertEqual(fromFile.standardError, "", "no warning: the password is not in argv")
        environment["SLEEPANALYSIS_DATABASE_URL_FILE"] = file.path
        let status = try runCommandLineTool(["queue", "status"], environment: environment)
        XCTAssertEqual(status.status, 0, status.standardError)
        let inArgv = try runCommandLineTool(["queue", "status", "--database", url], environment: environment)
        XCTAssertEqual(inArgv.status, 0, inArgv.standardError)
        XCTAssertTrue(inArgv.standardError.contains("--database holds a password"), inArgv.standardError)
        XCTAssertFalse(inArgv.standardError.contains(password))
        let missing = try runCommandLineTool(["queue", "status", "--database-file", "/nonexistent/url"])
        XCTAssertEqual(missing.status, 65, missing.standardError)
    }
}

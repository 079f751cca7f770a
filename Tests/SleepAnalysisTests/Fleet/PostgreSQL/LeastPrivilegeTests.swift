import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// Least privilege on a real cluster: `queue migrate` as the owner, `Tools/postgres/roles.sql` applied with psql,
/// then every command as a login role of one group (submitter, worker, reader) through the command-line tool.
/// Each works with its group's rights alone; what a group may not do is refused with exit 77 and changes nothing.
final class LeastPrivilegeTests: PostgresDatabaseTestCase {
    override class var migratesDatabase: Bool { false }

    private var roles: [String] = []
    private var directory: TemporaryDirectory!

    override func setUp() async throws {
        try await super.setUp()
        directory = try TemporaryDirectory(prefix: "least-privilege")
    }

    override func tearDown() async throws {
        try await super.tearDown()  // drops the database first: the login roles own nothing then
        directory?.remove()
        guard let url = ProcessInfo.processInfo.environment[PostgresTestDatabase.variable], !roles.isEmpty else {
            return
        }
        let administration = PostgresDatabase(address: FleetDatabaseAddress(url))
        for role in roles {
            _ = try? await administration.run { try $0.execute("DROP ROLE IF EXISTS \(try $0.quotedIdentifier(role))") }
        }
        await administration.close()
    }

    /// A login role in `group`, and its URL to the test database.
    private func login(_ group: String) async throws -> String {
        let role = "sa_\(group)_" + UUID().uuidString.prefix(8).lowercased()
        let password = UUID().uuidString
        roles.append(role)
        try await testDatabase.database().run { connection in
            try connection.execute(
                "CREATE ROLE \(try connection.quotedIdentifier(role)) LOGIN PASSWORD '\(password)' IN ROLE "
                    + (try connection.quotedIdentifier("sleepanalysis_\(group)")))
        }
        var components = try XCTUnwrap(URLComponents(string: testDatabase.address.connectionString))
        components.user = role
        components.password = password
        return try XCTUnwrap(components.string)
    }

    /// Runs the tool with `SLEEPANALYSIS_DATABASE_URL` set to `url`.
    private func tool(_ url: String, _ arguments: [String], timeout: TimeInterval = 30) throws -> ToolOutput {
        var environment = ProcessInfo.processInfo.environment
        environment[FleetDatabaseAddress.environmentVariable] = url
        return try runCommandLineTool(arguments, environment: environment, timeout: timeout)
    }

    private func state(_ id: String) async throws -> String? {
        try await testDatabase.database().run {
            try $0.execute("SELECT state FROM night_jobs WHERE id = $1", [id]).rows.first?[0]
        }
    }

    /// Migrates as the owner and grants the group roles their rights with `psql -f Tools/postgres/roles.sql`.
    private func applyRoles(_ owner: String) throws {
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        psql.arguments = [
            owner, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-f",
            FixturePaths.repositoryRoot.appendingPathComponent("Tools/postgres/roles.sql").path,
        ]
        psql.standardOutput = FileHandle.nullDevice
        try psql.run()
        psql.waitUntilExit()
        XCTAssertEqual(psql.terminationStatus, 0, "psql -f Tools/postgres/roles.sql")
    }

    private func rows(_ table: String) async throws -> Int {
        try await testDatabase.database().run {
            Int(try $0.execute("SELECT count(*) FROM \(table)").rows.first?.int64(0) ?? -1)
        }
    }

    /// The night service under the service role alone: a session, its chunks and `finish` (a job queued), the
    /// night analysed by a worker role, the result read, then the user erased — every row gone.
    func test_theNightService_worksWithTheServiceRoleAlone() async throws {
        let owner = testDatabase.address.connectionString
        let migrated = try tool(owner, ["queue", "migrate"])
        XCTAssertEqual(migrated.status, 0, migrated.standardError)
        try applyRoles(owner)
        let serviceRole = try await login("service")
        let worker = try await login("worker")
        let keys = try ServiceNights.tenantKeys()
        let chunks = directory.url.appendingPathComponent("chunks")
        let service = try NightService(
            configuration: NightServiceConfiguration(
                http: HTTPServerConfiguration(shutdownGracePeriod: 1), chunkDirectory: chunks,
                trustedIssuerKeys: [keys.trusted]),
            address: FleetDatabaseAddress(serviceRole))
        defer { service.stop() }
        let curl = Curl(port: service.port)
        let auth = ["Authorization: Bearer \(keys.a)"]

        let created = try curl.request(
            "POST", "/v1/sessions", headers: auth,
            body: Data(#"{"userId": "ana", "startTime": "2026-12-01T23:00:00.000Z"}"#.utf8))
        XCTAssertEqual(created.status, 201, created.text)
        let session = try XCTUnwrap(try ServiceNights.object(created.body)["sessionId"] as? String)
        let night = try ServiceNights.write(seconds: 120, chunkSeconds: 60, into: directory.url)
        for (sequence, chunk) in night.chunks.enumerated() {
            let put = try curl.request(
                "PUT", "/v1/sessions/\(session)/audio/\(sequence)", headers: auth, bodyFile: chunk)
            XCTAssertEqual(put.status, 201, put.text)
        }
        let finish = try curl.request("POST", "/v1/sessions/\(session)/finish", headers: auth)
        XCTAssertEqual(finish.status, 202, finish.text)

        let run = try tool(
            worker,
            [
                "worker", "--exit-when-idle", "--poll-seconds", "0.2", "--log-level", "warning", "--input-root",
                chunks.path, "--storage", directory.url.appendingPathComponent("storage").path,
            ], timeout: 180)
        XCTAssertEqual(run.status, 0, run.standardError)
        let result = try curl.request("GET", "/v1/sessions/\(session)/result", headers: auth)
        XCTAssertEqual(result.status, 200, result.text)
        let nights = try curl.request("GET", "/v1/users/ana/nights", headers: auth)
        XCTAssertEqual(nights.status, 200, nights.text)

        XCTAssertEqual(try curl.request("DELETE", "/v1/users/ana", headers: auth).status, 204)
        for table in [
            "night_service_sessions", "night_service_chunks", "night_jobs", "night_results", "session_nights",
        ] {
            let left = try await rows(table)
            XCTAssertEqual(left, 0, "\(table) after the user's erasure")
        }
    }

    func test_eachRole_worksWithItsOwnRightsAlone() async throws {
        let owner = testDatabase.address.connectionString
        let migrated = try tool(owner, ["queue", "migrate"])
        XCTAssertEqual(migrated.status, 0, migrated.standardError)
        XCTAssertTrue(migrated.standardOutput.contains("night-queue: version 0 → 3"), migrated.standardOutput)
        XCTAssertTrue(migrated.standardOutput.contains("night-service: version 0 → 1"), migrated.standardOutput)
        try applyRoles(owner)
        let submitter = try await login("submitter")
        let worker = try await login("worker")
        let reader = try await login("reader")

        // Only the owner changes the schema.
        for url in [submitter, worker, reader] {
            let refused = try tool(url, ["queue", "migrate"])
            XCTAssertEqual(refused.status, 77, refused.standardError)
        }

        // The submitter queues nights; the reader cannot.
        let audio = try AnalyzerNights.write(index: 1, into: directory.url)
        let notAudio = directory.url.appendingPathComponent("not-audio.wav")
        try Data("not a WAV file\n".utf8).write(to: notAudio)
        let start = ["--start", "2026-12-01T23:00:00Z", "--input-root", directory.url.path]
        let submitted = try tool(submitter, ["queue", "submit", audio.path, "--subject", "ana"] + start)
        XCTAssertEqual(submitted.status, 0, submitted.standardError)
        let good = submitted.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let refusedSubmit = try tool(reader, ["queue", "submit", notAudio.path, "--subject", "bo"] + start)
        XCTAssertEqual(refusedSubmit.status, 77, refusedSubmit.standardError)
        let badSubmit = try tool(submitter, ["queue", "submit", notAudio.path, "--subject", "bo"] + start)
        XCTAssertEqual(badSubmit.status, 0, badSubmit.standardError)
        let bad = badSubmit.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)

        // Everyone reads.
        for url in [submitter, worker, reader] {
            for arguments in [["queue", "status"], ["queue", "list", "--format", "json"], ["queue", "metrics"]] {
                let read = try tool(url, arguments)
                XCTAssertEqual(read.status, 0, "\(arguments): \(read.standardError)")
            }
        }

        // A worker cannot cancel.
        let cancel = try tool(worker, ["queue", "cancel", good])
        XCTAssertEqual(cancel.status, 77, cancel.standardError)
        let stillQueued = try await state(good)
        XCTAssertEqual(stillQueued, "queued")

        // The worker analyses both nights with its rights: one done, one failed.
        let run = try tool(
            worker,
            [
                "worker", "--exit-when-idle", "--poll-seconds", "0.2", "--log-level", "warning", "--input-root",
                directory.url.path, "--storage", directory.url.appendingPathComponent("storage").path,
            ], timeout: 180)
        XCTAssertEqual(run.status, 0, run.standardError)
        let done = try await state(good)
        XCTAssertEqual(done, "done")
        let failed = try await state(bad)
        XCTAssertEqual(failed, "failed")

        // A worker cannot retry; the submitter can.
        let workerRetry = try tool(worker, ["queue", "retry", bad])
        XCTAssertEqual(workerRetry.status, 77, workerRetry.standardError)
        let stillFailed = try await state(bad)
        XCTAssertEqual(stillFailed, "failed")
        let submitterRetry = try tool(submitter, ["queue", "retry", bad])
        XCTAssertEqual(submitterRetry.status, 0, submitterRetry.standardError)
        let requeued = try await state(bad)
        XCTAssertEqual(requeued, "queued")
        let submitterCancel = try tool(submitter, ["queue", "cancel", bad])
        XCTAssertEqual(submitterCancel.status, 0, submitterCancel.standardError)

        // The reader reads results and stored nights, and cannot prune; the submitter prunes.
        let result = try tool(reader, ["queue", "result", good])
        XCTAssertEqual(result.status, 0, result.standardError)
        let history = try tool(reader, ["history", "--subject", "ana", "--format", "json"])
        XCTAssertEqual(history.status, 0, history.standardError)
        XCTAssertTrue(history.standardOutput.contains("sessionId"), history.standardOutput)
        let readerPrune = try tool(reader, ["queue", "prune", "--older-than", "0s"])
        XCTAssertEqual(readerPrune.status, 77, readerPrune.standardError)
        let prune = try tool(submitter, ["queue", "prune", "--older-than", "0s"])
        XCTAssertEqual(prune.status, 0, prune.standardError)
        XCTAssertEqual(prune.standardOutput, "pruned 2 jobs, 1 results, 0 checkpoints, 0 stored nights\n")
    }
}

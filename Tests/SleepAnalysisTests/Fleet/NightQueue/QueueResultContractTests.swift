import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// `sleepanalysis queue result` and `queue status --format json` write the JSON contract's documents, checked by
/// the schema validator on a real PostgreSQL queue.
final class QueueResultContractTests: NightQueueTestCase {
    func test_queueResult_andQueueStatus_matchTheirSchemas() async throws {
        var night = SessionStoreFixtures.night(startingHoursAfter: 22)
        night.timeZone = TimeZone(identifier: "America/Sao_Paulo")!
        let id = try await queue.submit(
            NightSubmission(audio: URL(fileURLWithPath: "/nights/1.flac"), startTime: night.startTime, subjectId: "s1"))
        let claimed = try await queue.claim(worker: "w1", leaseDuration: 30)
        let lease = try XCTUnwrap(claimed)
        let isCompleted = try await queue.complete(lease, result: night, worker: "w1")
        XCTAssertTrue(isCompleted)
        let url = testDatabase.address.connectionString

        let result = try runCommandLineTool(["queue", "result", String(id), "--database", url])
        XCTAssertEqual(result.status, 0, result.standardError)
        XCTAssertEqual(try JSONSchemaValidator.errors(in: result.standardOutput, schema: "analysis-result"), [])
        let document = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        XCTAssertEqual(document["schemaVersion"] as? Int, SleepAnalysisJSON.schemaVersion)
        XCTAssertEqual(document["sessionId"] as? String, night.sessionId.uuidString)
        XCTAssertEqual(document["timeZone"] as? String, "America/Sao_Paulo")

        _ = try await queue.submit(
            NightSubmission(audio: URL(fileURLWithPath: "/nights/2.flac"), startTime: night.startTime, subjectId: "s1"))
        let status = try runCommandLineTool(["queue", "status", "--format", "json", "--database", url])
        XCTAssertEqual(status.status, 0, status.standardError)
        XCTAssertEqual(try JSONSchemaValidator.errors(in: status.standardOutput, schema: "queue-status"), [])
        XCTAssertTrue(status.standardOutput.contains("\"oldestWaiting\""), status.standardOutput)
    }
}

import Foundation
import XCTest

@testable import SleepAnalysis
@testable import SleepAnalysisFleet

/// `sleepanalysis report --database URL --subject ID`: the trends page of a subject's nights in the PostgreSQL session
/// store, another subject's left out, and no password in any output.
final class PostgresTrendsCommandTests: NightQueueTestCase {
    func test_report_withDatabase_drawsTheSubjectsNights() async throws {
        let store = try SessionStore(address: testDatabase.address, subject: "subject-21")
        let results = (0..<4).map(TrendFixtures.night)
        for result in results { _ = try await store.save(result) }
        _ = try await SessionStore(address: testDatabase.address, subject: "subject-22").save(TrendFixtures.night(9))
        let url = testDatabase.address.connectionString
        let out = try makeTemporaryDirectory(self).appendingPathComponent("trends.html")

        let run = try runCommandLineTool(["report", "--database", url, "--subject", "subject-21", "--out", out.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        let html = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(html.contains("<h1>Sleep over 4 nights</h1>"), html)
        let sleep = results.map { $0.statistics!.totalSleepDuration! }
        XCTAssertTrue(html.contains("<dt>Total sleep</dt><dd>\(ReportText.duration(sleep.reduce(0, +) / 4))</dd>"))
        XCTAssertFalse(html.contains("Wed 25 Nov"), "the other subject's night is not on the page")
        let password = URLComponents(string: url)?.password ?? ""
        if !password.isEmpty { XCTAssertFalse((run.standardError + html).contains(password), "no password shown") }

        let nobody = try runCommandLineTool(["report", "--database", url, "--subject", "subject-23", "--out", out.path])
        XCTAssertEqual(nobody.status, 65, nobody.standardError)
    }
}

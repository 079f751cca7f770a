import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `sleepanalysis report --store DIR --out trends.html` over 14 nights saved in a real SQLite session store: every
/// night's figures in the page's table are the store's, the averages are their means, the last night is set
/// against the 13 before it, and the page is self-contained. No nights in the range: exit 65; no --out: exit 64.
final class ReportCommandTests: XCTestCase {
    func test_the_trends_page_of_14_stored_nights_gives_the_stores_figures() throws {
        let directory = try makeTemporaryDirectory(self)
        let storeDirectory = directory.appendingPathComponent("store")
        let store = try SessionStore(directory: storeDirectory)
        let results = (0..<14).map(TrendFixtures.night)
        for result in results { _ = try store.save(result) }
        let stored = try store.nights(in: DateInterval(start: .distantPast, end: .distantFuture))
        XCTAssertEqual(stored.count, 14)
        let out = directory.appendingPathComponent("trends.html")

        let run = try runCommandLineTool(["report", "--store", storeDirectory.path, "--out", out.path])
        XCTAssertEqual(run.status, 0, run.standardError)
        XCTAssertTrue(run.standardError.contains("14 nights written"), run.standardError)
        let html = try String(contentsOf: out, encoding: .utf8)
        XCTAssertTrue(html.contains("<h1>Sleep over 14 nights</h1>"), html)
        XCTAssertTrue(html.contains("Monday 16 November 2026 to Sunday 29 November 2026"), html)
        for forbidden in ["<script", "<link", "<img", "src=", "url("] { XCTAssertFalse(html.contains(forbidden)) }

        // Every night: Night, In bed, Up, Total sleep, Sleep efficiency, Sleep score, Snoring time, Breathing rate,
        // Sleep midpoint.
        let table = try XCTUnwrap(html.components(separatedBy: "<section id=\"nights\"").last)
        let rows = table.components(separatedBy: "<tr><th scope=\"row\">").dropFirst().map { row in
            row.components(separatedBy: "</tr>")[0].replacingOccurrences(of: "</th>", with: "")
                .components(separatedBy: "<td>").map { $0.replacingOccurrences(of: "</td>", with: "") }
        }
        XCTAssertEqual(rows.count, 14)
        let history = results.map { $0.toSleepScoreHistoryEntry() }
        for (row, night) in zip(rows, stored) {
            let stats = try XCTUnwrap(night.statistics)
            XCTAssertEqual(row[1], ReportText.clock(night.startTime, night.timeZone))
            XCTAssertEqual(row[3], ReportText.duration(stats.totalSleepDuration), "total sleep of \(row[0])")
            XCTAssertEqual(row[4], ReportText.percent(stats.sleepEfficiency), "efficiency of \(row[0])")
            let result = try XCTUnwrap(try store.result(sessionId: night.sessionId))
            let score = try XCTUnwrap(SleepScoring.score(result: result, history: history))
            XCTAssertEqual(row[5], String(format: "%.0f", score.total * 100), "score of \(row[0])")
            XCTAssertEqual(row[6], ReportText.duration(stats.snoreTime), "snoring of \(row[0])")
            XCTAssertEqual(
                row[7], String(format: "%.1f breaths per minute", night.meanBreathingRate ?? 0),
                "breathing of \(row[0])")
        }
        XCTAssertEqual(rows.map { $0[0] }.first, "Mon 16 Nov 2026")
        XCTAssertEqual(Set(rows.map { $0[5] }).count > 1, true, "the scores differ from night to night")

        let sleep = stored.map { $0.statistics!.totalSleepDuration! }
        XCTAssertTrue(
            html.contains("<dt>Total sleep</dt><dd>\(ReportText.duration(sleep.reduce(0, +) / 14))</dd>"),
            "the average total sleep")
        let efficiency = stored.map { $0.statistics!.sleepEfficiency! }
        XCTAssertTrue(
            html.contains("<dt>Sleep efficiency</dt><dd>\(ReportText.percent(efficiency.reduce(0, +) / 14))</dd>"))
        let baseline = sleep.prefix(13).reduce(0, +) / 13
        XCTAssertTrue(
            html.contains(
                "<tr><th scope=\"row\">Total sleep</th><td>\(ReportText.duration(sleep[13]))</td><td>"
                    + "\(ReportText.duration(baseline))</td>"), "the last night against the 13 before")
        XCTAssertTrue(html.contains("against the 13 nights before it"), html)
        XCTAssertTrue(html.contains("<dt>Midpoint regularity</dt>"), html)

        // A range: the last week only.
        let week = try runCommandLineTool(
            ["report", "--store", storeDirectory.path, "--from", "2026-11-23T12:00:00Z", "--out", out.path])
        XCTAssertEqual(week.status, 0, week.standardError)
        XCTAssertTrue(try String(contentsOf: out, encoding: .utf8).contains("<h1>Sleep over 7 nights</h1>"))

        let none = try runCommandLineTool(
            ["report", "--store", storeDirectory.path, "--from", "2027-01-01", "--out", out.path])
        XCTAssertEqual(none.status, 65, none.standardError)
        XCTAssertTrue(none.standardError.contains("no readable nights in this range"), none.standardError)
        let noOut = try runCommandLineTool(["report", "--store", storeDirectory.path])
        XCTAssertEqual(noOut.status, 64, noOut.standardError)
    }
}

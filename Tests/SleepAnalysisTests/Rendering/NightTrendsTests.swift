import Foundation
import XCTest

@testable import SleepAnalysis

/// The trends' figures: each night's from its result, averages over the nights that have a figure, the baseline
/// from the nights before the last, the sleep midpoint across midnight and its regularity; the page draws a chart
/// and a table per figure, and says when there are no nights.
final class NightTrendsTests: XCTestCase {
    func test_each_nights_figures_come_from_its_result_and_the_midpoint_crosses_midnight() throws {
        let result = TrendFixtures.night(1)
        let night = NightTrends.Night(result: result)
        let stats = try XCTUnwrap(result.statistics)
        XCTAssertEqual(night.totalSleepDuration, stats.totalSleepDuration)
        XCTAssertEqual(night.sleepEfficiency, stats.sleepEfficiency)
        XCTAssertEqual(night.snoreTime, stats.snoreTime)
        XCTAssertEqual(night.meanBreathingRate ?? 0, 15.25, accuracy: 1e-9)
        // In bed 23:20, asleep 15 minutes later, the final wake 5 minutes before getting up.
        let onset = result.startTime.addingTimeInterval(15 * 60)
        let wake = result.endTime.addingTimeInterval(-5 * 60)
        XCTAssertEqual(night.sleepMidpoint, onset.addingTimeInterval(wake.timeIntervalSince(onset) / 2))
        let minutes = try XCTUnwrap(night.sleepMidpointMinutes)
        XCTAssertGreaterThan(minutes, 24 * 60, "after midnight: the evening's day plus hours")
        XCTAssertEqual(
            minutes, 23 * 60 + 20 + night.sleepMidpoint!.timeIntervalSince(result.startTime) / 60, accuracy: 1e-6)
        XCTAssertEqual(
            night.score ?? -1, Double(try XCTUnwrap(SleepScoring.score(result: result)).total) * 100, accuracy: 1e-6)
    }

    func test_averages_the_baseline_and_the_midpoint_regularity() throws {
        let results = (0..<5).map(TrendFixtures.night)
        let trends = NightTrends(results: results.reversed())
        XCTAssertEqual(trends.nights.map(\.sessionId), results.map(\.sessionId), "earliest first")
        let sleep = results.map { $0.statistics!.totalSleepDuration! }
        XCTAssertEqual(trends.average(\.totalSleepDuration) ?? 0, sleep.reduce(0, +) / 5, accuracy: 1e-6)
        XCTAssertEqual(trends.baseline(\.totalSleepDuration) ?? 0, sleep.prefix(4).reduce(0, +) / 4, accuracy: 1e-6)
        let midpoints = trends.nights.compactMap(\.sleepMidpointMinutes)
        let mean = midpoints.reduce(0, +) / 5
        let deviation = (midpoints.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 4).squareRoot()
        XCTAssertEqual(trends.midpointRegularity ?? 0, deviation, accuracy: 1e-9)
        XCTAssertGreaterThan(deviation, 5, "bedtimes 0, 20 and 40 minutes after 23:00 move the midpoint")
        XCTAssertNil(NightTrends(results: [results[0]]).midpointRegularity, "one night has no regularity")
        XCTAssertNil(NightTrends(results: [results[0]]).baseline(\.totalSleepDuration), "nor a baseline")
    }

    func test_the_page_has_a_chart_and_a_table_per_figure_and_says_when_there_are_no_nights() {
        let html = NightTrendsHTML.render(NightTrends(results: (0..<8).map(TrendFixtures.night)))
        for id in [
            "last-night", "averages", "total-sleep", "efficiency", "score", "snoring", "breathing", "midpoint",
            "nights",
        ] {
            XCTAssertTrue(html.contains("<section id=\"\(id)\""), id)
        }
        XCTAssertEqual(html.components(separatedBy: "role=\"img\"").count - 1, 6, "a chart per figure")
        XCTAssertEqual(
            html.components(separatedBy: "<table>").count - 1, 8, "their tables, the baseline's, every night's")
        XCTAssertTrue(html.contains("<h1>Sleep over 8 nights</h1>"), html)
        XCTAssertFalse(html.contains("(s)"))
        XCTAssertFalse(html.contains("<script"))
        let empty = NightTrendsHTML.render(NightTrends(nights: []))
        XCTAssertTrue(empty.contains("<p>No nights in this range.</p>"), empty)
    }
}

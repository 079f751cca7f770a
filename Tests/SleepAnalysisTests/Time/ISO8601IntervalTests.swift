import Foundation
import XCTest

@testable import SleepAnalysis

final class ISO8601IntervalTests: XCTestCase {
    /// 2026-12-01 06:30:00 UTC.
    private let sixThirty = Date(timeIntervalSince1970: 1_796_106_600)

    func test_dateInterval_parses_start_and_end_in_utc() throws {
        let window = try DateInterval(iso8601Interval: "2026-12-01T06:30:00Z/2026-12-01T07:00:00Z")
        XCTAssertEqual(window, DateInterval(start: sixThirty, duration: 1800))
    }

    func test_dateInterval_parses_offsets_fractions_and_minutes_only() throws {
        let window = try DateInterval(iso8601Interval: "2026-12-01T07:30:00.5+01:00/2026-12-01T02:00-0500")
        XCTAssertEqual(window.start, sixThirty + 0.5)
        XCTAssertEqual(window.end, sixThirty + 1800)
        let comma = try DateInterval(iso8601Interval: "2026-12-01 06:30:00,25Z/2026-12-01T06:31Z")
        XCTAssertEqual(comma.start, sixThirty + 0.25)
    }

    func test_dateInterval_parses_start_and_duration() throws {
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "2026-12-01T06:30:00Z/PT30M"),
            DateInterval(start: sixThirty, duration: 1800)
        )
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "2026-12-01T06:30Z/PT1H0.5M"),
            DateInterval(start: sixThirty, duration: 3630)
        )
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "2026-12-01T06:30Z/P1DT2S"),
            DateInterval(start: sixThirty, duration: 86_402)
        )
    }

    func test_dateInterval_parses_duration_and_end() throws {
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "PT45M/2026-12-01T07:15:00Z"),
            DateInterval(start: sixThirty, duration: 2700)
        )
    }

    func test_dateInterval_end_without_date_takes_start_date_and_zone() throws {
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "2026-12-01T07:30+01:00/08:00"),
            DateInterval(start: sixThirty, duration: 1800)
        )
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "2026-12-01T06:30Z/07:00:00Z"),
            DateInterval(start: sixThirty, duration: 1800)
        )
    }

    func test_dateInterval_reads_zoneless_times_in_given_zone() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let window = try DateInterval(iso8601Interval: "2026-12-01T15:30/2026-12-01T16:00", timeZone: tokyo)
        XCTAssertEqual(window, DateInterval(start: sixThirty, duration: 1800))
    }

    func test_dateInterval_months_follow_the_calendar() throws {
        let window = try DateInterval(iso8601Interval: "2026-01-31T00:00Z/P1M")
        XCTAssertEqual(window.duration, 28 * 86_400)
    }

    /// Found by fuzzing (Tools/fuzz/regressions/iso8601-interval): a duration with more digits than `Int` holds
    /// trapped converting to `Int`; durations beyond 10,000 years are now rejected with `invalidInput`.
    func test_dateInterval_rejects_durations_beyond_ten_thousand_years() throws {
        let tooLong = [
            "P12666666666666666666663W/2026-12-01T07:00:00Z", "2026-12-01T06:30Z/P10001Y",
            "2026-12-01T06:30Z/P120001M", "2026-12-01T06:30Z/P" + String(repeating: "9", count: 400) + "D",
            "2026-12-01T06:30Z/PT99999999999999999999S",
        ]
        for text in tooLong {
            XCTAssertThrowsError(try DateInterval(iso8601Interval: text), text) { error in
                guard case SleepCycleSdkError.invalidInput = error else {
                    return XCTFail("\(text): unexpected \(error)")
                }
            }
        }
        let longest = try DateInterval(iso8601Interval: "1970-01-01T00:00Z/P8000Y")
        XCTAssertGreaterThan(longest.duration, 7_999 * 365 * 86_400)
    }

    func test_dateInterval_rejects_malformed_text_with_invalidInput() {
        let bad = [
            "", "2026-12-01T06:30Z", "2026-12-01T06:30Z/", "/2026-12-01T06:30Z", "a/b",
            "2026-12-01T06:30Z/2026-12-01T06:00Z",  // end before start
            "2026-02-30T06:30Z/PT1H",  // no such day
            "2026-12-01T25:00Z/PT1H", "2026-12-01T06:61Z/PT1H", "2026-12-01/2026-12-02",
            "2026-12-01T06:30Z/PT", "2026-12-01T06:30Z/P1.5Y", "2026-12-01T06:30Z/PT1.5H30M",
            "PT1H/PT2H", "2026-12-01T06:30Z/2026-12-01T07:00Z/PT1H", "2026-12-01T06:30+25:00/PT1H",
            "2026-12-01T06:30Zjunk/PT1H", "06:30/07:00",
        ]
        for text in bad {
            XCTAssertThrowsError(try DateInterval(iso8601Interval: text), text) { error in
                guard case SleepCycleSdkError.invalidInput(let why) = error else {
                    return XCTFail("\(text): unexpected \(error)")
                }
                XCTAssertTrue(why.message.contains("ISO 8601"), why.message)
            }
        }
    }

    func test_dateInterval_edges_of_the_shared_parser() throws {
        // Zones up to 18:00 (what a TimeZone can be), years 1970...9999, ASCII signs only, no dangling colon.
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "2026-12-02T00:30:00+18:00/PT30M"),
            DateInterval(start: sixThirty, duration: 1800))
        let rejected = [
            "2026-12-01T06:30+19:00/PT1H", "2026-12-01T06:30Z/07:00+19:00", "1969-12-01T06:30Z/PT1H",
            "2026-12-01T06:30\u{2212}01:00/PT1H", "2026-12-01T06:30+01:/PT1H",
            "2026-12-01T06:30Z/P99999999999999999999Y", "2026-12-01T06:30Z/P10001Y",
        ]
        for text in rejected {
            XCTAssertThrowsError(try DateInterval(iso8601Interval: text), text) { error in
                guard case SleepCycleSdkError.invalidInput(let why) = error else {
                    return XCTFail("\(text): unexpected \(error)")
                }
                XCTAssertTrue(why.message.contains("ISO 8601"), why.message)
            }
        }
    }

    func test_dateInterval_end_of_day_and_leap_second() throws {
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "2026-11-30T24:00Z/2026-12-01T06:30Z"),
            DateInterval(start: sixThirty - 6.5 * 3600, end: sixThirty))
        XCTAssertEqual(
            try DateInterval(iso8601Interval: "2026-12-01T06:29:60Z/PT30M"),
            DateInterval(start: sixThirty, duration: 1800))
    }
}

import Foundation
import XCTest

@testable import SleepAnalysis

/// The package's one ISO 8601 date-time parser: the timestamp syntax (CSV files, command line), the interval
/// syntax (wake-up windows), days, and the year range every caller shares.
final class ISO8601DateTimeParserTests: XCTestCase {
    /// 2024-01-31 23:00:00 UTC.
    private let elevenPM = Date(timeIntervalSince1970: 1_706_742_000)
    private let utc = ISO8601DateTimeParser(syntax: .timestamp)
    private let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// The timestamp syntax through the byte path CSV files take.
    private func timestamp(_ text: String) -> Date? {
        var copy = text
        return copy.withUTF8 { ISO8601DateTimeParser.timestamp($0) }
    }

    func test_timestamp_reads_every_separator_fraction_and_zone_spelling() {
        let spellings: [(String, Date)] = [
            ("2024-01-31T23:00:00Z", elevenPM),
            ("2024-01-31t23:00:00z", elevenPM),
            ("2024-01-31 23:00:00Z", elevenPM),
            ("2024-02-01T00:00:00+01:00", elevenPM),
            ("2024-02-01T00:00:00+0100", elevenPM),
            ("2024-02-01T00:00:00+01", elevenPM),
            ("2024-01-31T17:30:00-05:30", elevenPM),
            ("2024-01-31T23:00:00.250Z", elevenPM + 0.25),
            ("2024-01-31T23:00:00,5Z", elevenPM + 0.5),
            ("2024-01-31T22:59:60Z", elevenPM),  // a leap second is the next minute's first
        ]
        for (text, expected) in spellings {
            XCTAssertEqual(timestamp(text), expected, text)
            XCTAssertEqual(utc.date(from: text), expected, text)
        }
    }

    func test_timestamp_rejects_what_it_does_not_fully_spell() {
        let rejected = [
            "", "2024-01-31", "2024-01-31T23:00:00", "2024-01-31T23:00Z", "2024-01-31T24:00:00Z",
            "2024-01-31T23:60:00Z", "2024-01-31T23:00:61Z", "2024-01-31T23:00:00.Z", "2024-01-31T23:00:00+24:00",
            "2024-01-31T23:00:00+01:", "2024-01-31T23:00:00+01:60", "2024-01-31T23:00:00+1", "2024-01-31T23:00:00Zjunk",
            "2024-01-31T23:00:00 Z", "2024-01-31X23:00:00Z", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
            "2024-00-10T00:00:00Z", "2024-04-31T00:00:00Z", "2024-01-00T00:00:00Z", "24-01-31T23:00:00Z",
            "2024-01-31T23:00:00\u{2212}05:00", "２０２４-01-31T23:00:00Z", "2024-01-31T23:00:00.٥Z",
        ]
        for text in rejected {
            XCTAssertNil(timestamp(text), text)
            XCTAssertNil(utc.date(from: text), text)
        }
    }

    func test_years_are_range_checked_1970_to_9999() {
        XCTAssertEqual(timestamp("1970-01-01T00:00:00Z"), Date(timeIntervalSince1970: 0))
        XCTAssertEqual(timestamp("9999-12-31T23:59:59Z"), Date(timeIntervalSince1970: 253_402_300_799))
        XCTAssertEqual(timestamp("1970-01-01T00:30:00+01:00"), Date(timeIntervalSince1970: -1_800))
        for text in ["1969-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "10000-01-01T00:00:00Z"] {
            XCTAssertNil(timestamp(text), text)
        }
        let interval = ISO8601DateTimeParser(syntax: .interval)
        XCTAssertNil(interval.parse("1969-12-31T06:30"))
        XCTAssertNil(utc.day(from: "1969-12-31"))
        XCTAssertNotNil(utc.day(from: "9999-12-31"))
    }

    func test_interval_syntax_allows_minutes_local_time_and_end_of_day() throws {
        let parser = ISO8601DateTimeParser(syntax: .interval, defaultTimeZone: tokyo)
        XCTAssertEqual(parser.date(from: "2024-02-01T08:00"), elevenPM)
        XCTAssertEqual(parser.date(from: "2024-01-31T23:00Z"), elevenPM)
        XCTAssertEqual(parser.date(from: "2024-01-31T24:00Z"), elevenPM + 3_600)
        XCTAssertEqual(parser.date(from: "2024-01-31T24:00:00+01:00"), elevenPM)
        XCTAssertNil(parser.date(from: "2024-01-31T24:00:01Z"))
        XCTAssertNil(parser.date(from: "2024-01-31T24:30Z"))
        XCTAssertNil(parser.date(from: "23:00Z"), "a time alone needs allowTimeOnly")
        let reference = try XCTUnwrap(parser.parse("2024-01-31T22:00+00:00"))
        let time = try XCTUnwrap(parser.parse("23:00", allowTimeOnly: true))
        XCTAssertNil(time.day)
        XCTAssertEqual(parser.resolve(time, reference: reference), elevenPM, "date and zone from the reference")
        XCTAssertNil(parser.resolve(time), "no date without a reference")
    }

    func test_timestamp_syntax_needs_a_zone_and_seconds_that_interval_syntax_does_not() {
        let text = "2024-01-31T23:00"
        XCTAssertNil(utc.parse(text))
        XCTAssertEqual(
            ISO8601DateTimeParser(syntax: .interval).parse(text),
            ISO8601DateTime(
                day: .init(year: 2024, month: 1, day: 31), hour: 23, minute: 0, second: 0, fraction: 0,
                zoneOffsetSeconds: nil))
    }

    func test_day_is_midnight_in_the_default_zone() {
        let parser = ISO8601DateTimeParser(syntax: .timestamp, defaultTimeZone: tokyo)
        XCTAssertEqual(parser.day(from: "2024-02-01"), elevenPM - 8 * 3_600)
        XCTAssertEqual(utc.day(from: "2024-02-01"), elevenPM + 3_600)
        for text in ["2024-02-01T00:00:00Z", "2024-02-30", "2024-2-01", "2024-02-01 ", ""] {
            XCTAssertNil(parser.day(from: text), text)
        }
    }

    func test_daysSinceEpoch_matches_the_calendar_across_centuries() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        for (year, month, day) in [(1970, 1, 1), (2000, 2, 29), (2100, 3, 1), (2400, 12, 31), (9999, 12, 31)] {
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day))!
            let days = ISO8601DateTime.Day(year: year, month: month, day: day).daysSinceEpoch
            XCTAssertEqual(Double(days) * 86_400, date.timeIntervalSince1970, "\(year)-\(month)-\(day)")
        }
    }
}

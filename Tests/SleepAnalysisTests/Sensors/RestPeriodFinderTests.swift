import Foundation
import XCTest

@testable import SleepAnalysis

/// The HDCZA steps of `RestPeriodFinder`: short rests dropped, near rests joined, days from noon to noon, gaps
/// not rest, and no rest a typed error.
final class RestPeriodFinderTests: XCTestCase {
    /// 2026-12-01T12:00:00Z, a noon in UTC.
    private let noon = Date(timeIntervalSince1970: 1_796_126_400)

    func test_rests_over_30_minutes_are_kept_and_those_under_an_hour_apart_joined() {
        let rest =
            Array(repeating: true, count: 400) + Array(repeating: false, count: 100)
            + Array(repeating: true, count: 400) + Array(repeating: false, count: 800)
            + Array(repeating: true, count: 300)
        XCTAssertEqual(RestPeriodFinder.restRuns(rest), [0..<900], "the 300-epoch (25-minute) rest is too short")
    }

    func test_each_noon_to_noon_day_gets_its_longest_rest_even_across_midnight() throws {
        // From noon: 10 h moving, 6 h still (22:00–04:00), 8 h moving; then a second day with a 4-hour rest.
        var angles: [Double?] = []
        func moving(_ hours: Double) { for index in 0..<Int(hours * 720) { angles.append(index % 2 == 0 ? 10 : 30) } }
        func still(_ hours: Double) { angles += repeatElement(5.0, count: Int(hours * 720)) }
        moving(10)
        still(6)
        moving(8)
        moving(11)
        still(4)
        moving(9)
        let nights = try RestPeriodFinder.nights(in: ZAngleEpochs(origin: noon, angles: angles), timeZone: .gmt)
        XCTAssertEqual(nights.count, 2)
        XCTAssertEqual(nights[0].start.timeIntervalSince(noon), 10 * 3600, accuracy: 300)
        XCTAssertEqual(nights[0].duration, 6 * 3600, accuracy: 600)
        XCTAssertEqual(nights[1].start.timeIntervalSince(noon), 35 * 3600, accuracy: 300)
        XCTAssertEqual(nights[1].duration, 4 * 3600, accuracy: 600)
    }

    func test_a_gap_in_the_readings_is_not_rest_and_no_rest_is_a_typed_error() {
        var angles: [Double?] = (0..<7200).map { $0 % 2 == 0 ? 10 : 30 }
        angles += repeatElement(nil, count: 2000)
        angles += (0..<720).map { $0 % 2 == 0 ? 10 : 30 }
        XCTAssertThrowsError(
            try RestPeriodFinder.nights(in: ZAngleEpochs(origin: noon, angles: angles), timeZone: .gmt)
        ) { error in
            guard case .noRestPeriod(let readings) = error as? NightSplitError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(readings.duration, Double(angles.count) * 5, accuracy: 1)
        }
    }
}

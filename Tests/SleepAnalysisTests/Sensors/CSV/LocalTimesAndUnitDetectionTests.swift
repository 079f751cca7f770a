import Foundation
import XCTest

@testable import SleepAnalysis

/// Sensor files with local (zoneless) times read in a given zone, and the accelerometer unit detected from the
/// readings' median magnitude when no one states it.
final class LocalTimesAndUnitDetectionTests: XCTestCase {
    private let stockholm = TimeZone(identifier: "Europe/Stockholm")!

    private func write(_ text: String) throws -> URL {
        let url = try makeTemporaryDirectory(self).appendingPathComponent("phone.csv")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// `count` rows every 0.1 s from 2026-12-01 23:00:00 local time, with `z` on the z axis.
    private func localRows(count: Int, z: Double, header: String = "time,x,y,z") -> String {
        var lines = [header]
        for index in 0..<count {
            let tenths = index % 10
            let seconds = index / 10
            lines.append(
                String(format: "2026-12-01 23:%02d:%02d.%d,0.01,-0.02,%.3f", seconds / 60, seconds % 60, tenths, z))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func test_zoneless_times_are_local_times_in_the_given_zone() throws {
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-12-01T22:00:00Z"))
        let url = try write(localRows(count: 3, z: 1))
        let reader = try AccelerometerCSVReader(url: url, startTime: start, localZone: stockholm)
        XCTAssertEqual(try reader.next()?.timestamp, start)  // 23:00 in Stockholm in December is 22:00 UTC
        let summer = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-07-01T21:00:00Z"))
        XCTAssertEqual(
            CSVTimestampParser.parse("2026-07-01 23:00:00", startTime: summer, localZone: stockholm), .date(summer))
        XCTAssertEqual(CSVTimestampParser.parse("2026-07-01 23:00:00", startTime: summer), .unparsable)
        XCTAssertThrowsError(try AccelerometerCSVReader(url: url, startTime: start))
    }

    func test_the_unit_is_detected_from_the_median_magnitude_when_nothing_states_it() throws {
        let start = try XCTUnwrap(ISO8601DateFormatter().date(from: "2026-12-01T22:00:00Z"))
        let metres = try AccelerometerCSVReader(
            url: try write(localRows(count: 50, z: 9.79)), startTime: start, localZone: stockholm)
        XCTAssertEqual(metres.unit, .metersPerSecondSquared)
        guard case .detected(let median) = metres.unitReport.source else { return XCTFail("\(metres.unitReport)") }
        XCTAssertEqual(median, 9.79, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(try metres.next()).z, 9.79 / 9.80665, accuracy: 1e-6)

        let gravities = try AccelerometerCSVReader(
            url: try write(localRows(count: 50, z: 1.01)), startTime: start, localZone: stockholm)
        XCTAssertEqual(gravities.unit, .g)

        // A statement wins over the magnitude.
        let stated = try AccelerometerCSVReader(
            url: try write(localRows(count: 50, z: 9.79, header: "time,x_g,y_g,z_g")), startTime: start,
            localZone: stockholm)
        XCTAssertEqual(stated.unitReport, AccelerometerUnitReport(unit: .g, source: .stated("column 'x_g'")))
    }

    func test_analyze_reads_local_times_with_timezone_and_states_the_detected_unit() throws {
        let directory = try makeTemporaryDirectory(self)
        let csv = try write(localRows(count: 6_000, z: 9.79))
        let arguments = [
            "analyze", "-", "--accelerometer", csv.path, "--start", "2026-12-01T22:00:00Z", "--no-store", "--quiet",
            "--format", "json", "--storage", directory.path,
        ]
        let output = try runCommandLineTool(arguments + ["--timezone", "Europe/Stockholm"], timeout: 60)
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertTrue(
            output.standardError.contains("phone.csv: accelerometer in m/s^2 (detected: median |a| 9.79)"),
            output.standardError)

        let withoutZone = try runCommandLineTool(arguments, timeout: 60)
        XCTAssertEqual(withoutZone.status, 65, withoutZone.standardError)
        XCTAssertTrue(withoutZone.standardError.contains("--timezone"), withoutZone.standardError)

        let badZone = try runCommandLineTool(arguments + ["--timezone", "Mars/Olympus"])
        XCTAssertEqual(badZone.status, 64)
    }
}

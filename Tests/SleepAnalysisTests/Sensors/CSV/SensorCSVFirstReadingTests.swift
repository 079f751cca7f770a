import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `SensorCSVFirstReading`: a file's first reading when its timestamps are absolute, nil when they count from a
/// start.
final class SensorCSVFirstReadingTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory(prefix: "first-reading")
    }

    override func tearDown() {
        directory.remove()
        super.tearDown()
    }

    private func firstReading(_ text: String, zone: TimeZone? = nil) throws -> Date? {
        let file = directory.url.appendingPathComponent("\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: file)
        return try SensorCSVFirstReading.absoluteTime(of: file, localZone: zone)
    }

    func test_absolute_timestamps_give_the_first_reading_relative_ones_nil() throws {
        let first = Date(timeIntervalSince1970: 1_796_164_200)  // 2026-12-01T22:30:00Z
        XCTAssertEqual(
            try firstReading(
                "# units: g\n\ntimestamp,x,y,z\n2026-12-01T22:30:00Z,0,0,1\n2026-12-01T22:30:00.1Z,0,0,1\n"), first)
        XCTAssertEqual(try firstReading("1796164200.0,0,0,1\n1796164200.1,0,0,1\n"), first)
        XCTAssertEqual(
            try firstReading("time,bpm\n2026-12-01 23:30:00,60\n", zone: TimeZone(identifier: "Europe/Stockholm")),
            first)
        XCTAssertNil(try firstReading("timestamp,x,y,z\n0.0,0,0,1\n0.1,0,0,1\n"))
        // Unreadable as a time (zoneless without a zone, a second header): the file's reader says what is wrong.
        XCTAssertNil(try firstReading("time,bpm\n2026-12-01 23:30:00,60\n"))
        XCTAssertNil(try firstReading("a,b\nc,d\n2026-12-01T22:30:00Z,1\n"))
        XCTAssertThrowsError(
            try SensorCSVFirstReading.absoluteTime(
                of: directory.url.appendingPathComponent("missing.csv"), localZone: nil))
    }
}

import Foundation
import XCTest

@testable import SleepAnalysis

final class SensorCSVReaderTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func readAll(_ reader: AccelerometerCSVReader) throws -> [AccelerometerSample] {
        var samples: [AccelerometerSample] = []
        while let sample = try reader.next() { samples.append(sample) }
        return samples
    }

    private func readAccelerometer(_ url: URL, unit: AccelerationUnit? = nil) throws -> [AccelerometerSample] {
        try readAll(try AccelerometerCSVReader(url: url, startTime: start, unit: unit))
    }

    // MARK: - Good files

    func test_accelerometerReader_reads_relativeSeconds_withHeader() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("a.csv", "timestamp,x,y,z\n0.0,0.1,0.2,1.0\n0.02, -0.1 ,0.0,0.98\r\n\n0.04,0,0,1\n")

        let samples = try readAccelerometer(url)

        XCTAssertEqual(samples.count, 3)
        XCTAssertEqual(samples[1].timestamp.timeIntervalSince(start), 0.02, accuracy: 1e-6)
        XCTAssertEqual(samples[1].x, -0.1)
        XCTAssertEqual(samples[2].z, 1)
    }

    func test_accelerometerReader_reads_epochAndISO8601_withoutHeader() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text(
            "a.csv",
            """
            1700000001.5,0,0,1
            2023-11-14T22:13:22.25Z,0,0,1
            2023-11-15 00:13:23+02:00,0,0,1
            2023-11-14T22:13:24.000-0000,0,0,1
            """)

        let times = try readAccelerometer(url).map { $0.timestamp.timeIntervalSince1970 }

        XCTAssertEqual(times.count, 4)
        XCTAssertEqual(times[0], 1_700_000_001.5, accuracy: 1e-6)
        XCTAssertEqual(times[1], 1_700_000_002.25, accuracy: 1e-6)
        XCTAssertEqual(times[2], 1_700_000_003, accuracy: 1e-6)
        XCTAssertEqual(times[3], 1_700_000_004, accuracy: 1e-6)
    }

    func test_accelerometerReader_converts_metersPerSecondSquared_fromComment() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("a.csv", "# recorded on a watch\n# units: m/s^2\ntimestamp,x,y,z\n0,0,0,9.80665\n")

        let reader = try AccelerometerCSVReader(url: url, startTime: start)

        XCTAssertEqual(reader.unit, .metersPerSecondSquared)
        XCTAssertEqual(try reader.next()?.z ?? 0, 1, accuracy: 1e-12)
    }

    func test_accelerometerReader_takesUnit_fromColumnNames_andOption() throws {
        let files = try DataSourceTestFiles()
        let metres = try files.text("m.csv", "time,x_ms2,y_ms2,z_ms2\n0,0,0,19.6133\n")
        let gravities = try files.text("g.csv", "time,x_g,y_g,z_g\n0,0,0,2\n")
        let plain = try files.text("p.csv", "0,0,0,9.80665\n")

        XCTAssertEqual(try readAccelerometer(metres)[0].z, 2, accuracy: 1e-12)
        XCTAssertEqual(try readAccelerometer(gravities)[0].z, 2, accuracy: 1e-12)
        XCTAssertEqual(try readAccelerometer(plain, unit: .metersPerSecondSquared)[0].z, 1, accuracy: 1e-12)
        XCTAssertEqual(try readAccelerometer(plain)[0].z, 1, accuracy: 1e-12, "no statement: detected from |a| 9.8")
    }

    func test_heartRateAndActivityReaders_read_rows() throws {
        let files = try DataSourceTestFiles()
        let heart = try files.text("hr.csv", "timestamp,bpm\n0,61\n5,60.5\n")
        let activity = try files.text("act.csv", "timestamp,activity_count\n0,0\n30,12\n")

        let heartReader = try HeartRateCSVReader(url: heart, startTime: start)
        let activityReader = try ActivityCountCSVReader(url: activity, startTime: start)

        XCTAssertEqual(try heartReader.next()?.bpm, 61)
        XCTAssertEqual(try heartReader.next()?.bpm, 60.5)
        XCTAssertNil(try heartReader.next())
        XCTAssertEqual(try activityReader.next()?.activityCount, 0)
        let second = try activityReader.next()
        XCTAssertEqual(second?.activityCount, 12)
        XCTAssertEqual(second?.timestamp, start.addingTimeInterval(30))
    }

    // MARK: - Errors, each with its line

    func test_accelerometerReader_throws_missingFile() {
        let url = URL(fileURLWithPath: "/nonexistent/accel.csv")
        XCTAssertCSVError(line: 0, { _ = try AccelerometerCSVReader(url: url, startTime: start) }) {
            $0 == .missingFile
        }
    }

    func test_accelerometerReader_throws_wrongColumnCount_atLine() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("a.csv", "timestamp,x,y,z\n0,0,0,1\n0.1,0,0\n")
        XCTAssertCSVError(line: 3, { _ = try self.readAccelerometer(url) }) {
            $0 == .wrongColumnCount(expected: 4, found: 3)
        }
    }

    func test_accelerometerReader_throws_wrongColumnCount_inHeader() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("a.csv", "# units: g\ntimestamp,x,y\n0,0,0,1\n")
        XCTAssertCSVError(line: 2, { _ = try AccelerometerCSVReader(url: url, startTime: start) }) {
            $0 == .wrongColumnCount(expected: 4, found: 3)
        }
    }

    func test_accelerometerReader_throws_unparsableNumber_atLine() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("a.csv", "0,0,0,1\n0.1,0,abc,1\n")
        XCTAssertCSVError(line: 2, { _ = try self.readAccelerometer(url) }) {
            $0 == .unparsableNumber(column: "y", text: "abc")
        }
    }

    func test_accelerometerReader_throws_nonFinite_atLine() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("a.csv", "t,x,y,z\n0,0,0,1\n1,nan,0,1\n")
        let infinite = try files.text("b.csv", "t,x,y,z\n0,0,0,1\n1,0,0,1\ninf,0,0,1\n")
        XCTAssertCSVError(line: 3, { _ = try self.readAccelerometer(url) }) {
            $0 == .nonFiniteValue(column: "x", text: "nan")
        }
        XCTAssertCSVError(line: 4, { _ = try self.readAccelerometer(infinite) }) {
            $0 == .nonFiniteValue(column: "t", text: "inf")
        }
    }

    func test_accelerometerReader_throws_malformedRow_forEmptyField() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("a.csv", "0,0,0,1\n1,0,,1\n")
        XCTAssertCSVError(line: 2, { _ = try self.readAccelerometer(url) }) {
            if case .malformedRow = $0 { true } else { false }
        }
    }

    func test_accelerometerReader_throws_malformedRow_forInvalidUTF8() throws {
        let files = try DataSourceTestFiles()
        let url = files.url("a.csv")
        try Data("0,0,0,1\n1,0,".utf8 + [0xFF, 0xFE] + Data(",1\n".utf8)).write(to: url)
        XCTAssertCSVError(line: 2, { _ = try self.readAccelerometer(url) }) {
            if case .malformedRow = $0 { true } else { false }
        }
    }

    func test_accelerometerReader_throws_timestampsGoingBackwards_atLine() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("a.csv", "timestamp,x,y,z\n0,0,0,1\n1,0,0,1\n1,0,0,1\n0.5,0,0,1\n")
        XCTAssertCSVError(line: 5, { _ = try self.readAccelerometer(url) }) {
            if case .timestampWentBackwards = $0 { true } else { false }
        }
    }

    func test_accelerometerReader_throws_unparsableTimestamp_includingZonelessISO() throws {
        let files = try DataSourceTestFiles()
        let zoneless = try files.text("a.csv", "2023-11-14T22:13:22Z,0,0,1\n2023-11-14T22:13:23,0,0,1\n")
        let garbage = try files.text("b.csv", "timestamp,x,y,z\n0,0,0,1\nnoon,0,0,1\n")
        XCTAssertCSVError(line: 2, { _ = try self.readAccelerometer(zoneless) }) {
            $0 == .unparsableTimestamp("2023-11-14T22:13:23")
        }
        XCTAssertCSVError(line: 3, { _ = try self.readAccelerometer(garbage) }) {
            $0 == .unparsableTimestamp("noon")
        }
    }

    /// Found through the fuzzing seed corpus: every line whose first field was not a timestamp was taken for a
    /// header, so a file of zoneless ISO 8601 rows after a header read as no data at all, without an error.
    func test_readers_take_one_header_only_and_reject_a_second() throws {
        let files = try DataSourceTestFiles()
        let zoneless = try files.text("a.csv", "timestamp,bpm\n2026-12-01T23:00:00,60\n2026-12-01T23:00:30,61\n")
        XCTAssertCSVError(line: 2, { _ = try HeartRateCSVReader(url: zoneless, startTime: self.start) }) {
            $0 == .unparsableTimestamp("2026-12-01T23:00:00")
        }
        let twoHeaders = try files.text("b.csv", "timestamp,x,y,z\n# units: g\ntime,x,y,z\n0,0,0,1\n")
        XCTAssertCSVError(line: 3, { _ = try self.readAccelerometer(twoHeaders) }) {
            $0 == .unparsableTimestamp("time")
        }
    }

    func test_accelerometerReader_throws_conflictingOrUnknownUnits() throws {
        let files = try DataSourceTestFiles()
        let conflicting = try files.text("a.csv", "# units: g\ntimestamp,x_ms2,y_ms2,z_ms2\n0,0,0,1\n")
        let unknown = try files.text("b.csv", "# units: furlongs\n0,0,0,1\n")
        let stated = try files.text("c.csv", "# units: m/s^2\n0,0,0,1\n")
        XCTAssertCSVError(line: 2, { _ = try AccelerometerCSVReader(url: conflicting, startTime: start) }) {
            if case .conflictingUnits = $0 { true } else { false }
        }
        XCTAssertCSVError(line: 1, { _ = try AccelerometerCSVReader(url: unknown, startTime: start) }) {
            $0 == .unknownUnit("furlongs")
        }
        XCTAssertCSVError(line: 1, { _ = try AccelerometerCSVReader(url: stated, startTime: start, unit: .g) }) {
            if case .conflictingUnits = $0 { true } else { false }
        }
    }

    func test_heartRateReader_throws_nonPositiveRate_atLine() throws {
        let files = try DataSourceTestFiles()
        let url = try files.text("hr.csv", "timestamp,bpm\n0,60\n1,-3\n")
        let reader = try HeartRateCSVReader(url: url, startTime: start)
        _ = try reader.next()
        XCTAssertCSVError(line: 3, { _ = try reader.next() }) {
            $0 == .valueOutOfRange(column: "bpm", value: -3)
        }
    }

    func test_activityReader_throws_negativeCount_andBadHeader() throws {
        let files = try DataSourceTestFiles()
        let negative = try files.text("a.csv", "0,-1\n")
        let header = try files.text("b.csv", "timestamp,activity_count,extra\n0,1,2\n")
        XCTAssertCSVError(line: 1, { _ = try ActivityCountCSVReader(url: negative, startTime: start).next() }) {
            $0 == .valueOutOfRange(column: "activity_count", value: -1)
        }
        XCTAssertCSVError(line: 1, { _ = try ActivityCountCSVReader(url: header, startTime: start) }) {
            $0 == .wrongColumnCount(expected: 2, found: 3)
        }
    }

    // MARK: - Timestamps

    func test_timestampParser_handles_calendarEdges() {
        let epoch = Date(timeIntervalSince1970: 0)
        func iso(_ text: Substring) -> Date? {
            guard case .date(let date) = CSVTimestampParser.parse(text, startTime: epoch) else { return nil }
            return date
        }
        XCTAssertEqual(iso("2024-02-29T00:00:00Z")?.timeIntervalSince1970, 1_709_164_800)
        XCTAssertEqual(iso("1970-01-01T00:00:00Z")?.timeIntervalSince1970, 0)
        XCTAssertNil(iso("2023-02-29T00:00:00Z"))
        XCTAssertNil(iso("2023-01-01T24:00:00Z"))
        XCTAssertNil(iso("2023-01-01T00:00:00Zjunk"))
        let start = Date(timeIntervalSince1970: 1_000)
        XCTAssertEqual(CSVTimestampParser.parse("2.5", startTime: start), .date(Date(timeIntervalSince1970: 1_002.5)))
        XCTAssertEqual(CSVTimestampParser.parse("-inf", startTime: start), .nonFinite)
    }

    func test_timestampParser_rejects_isoYearsOutside1970To9999() {
        let start = Date(timeIntervalSince1970: 1_000)
        XCTAssertEqual(CSVTimestampParser.parse("1969-12-31T23:59:59Z", startTime: start), .unparsable)
        XCTAssertEqual(CSVTimestampParser.parse("0001-01-01T00:00:00Z", startTime: start), .unparsable)
        XCTAssertEqual(
            CSVTimestampParser.parse("9999-12-31T23:59:59.5Z", startTime: start),
            .date(Date(timeIntervalSince1970: 253_402_300_799.5)))
    }

    func test_numberParser_matchesDoubleParsing_forEveryForm() {
        var generator = SystemRandomNumberGenerator()
        var texts = [
            "0", "-0", "+1", "1.", ".5", "-.5", "9.80665", "1706742000.25", "1e5", "1.5E-3", "12345678901234567890",
            "0.1234567890123456789", "1e300", "4.9e-324", "nan", "-inf", "0x1p3", "", "-", ".", "1e", "1.2.3", "abc",
            "9007199254740993", "1e23", "1e22",
        ]
        for _ in 0..<2_000 {
            let mantissa = Int64.random(in: -10_000_000_000...10_000_000_000, using: &generator)
            let decimals = Int.random(in: 0...12, using: &generator)
            let exponent = Int.random(in: -30...30, using: &generator)
            var text = String(mantissa)
            if decimals > 0, text.count > decimals + 1 {
                text.insert(".", at: text.index(text.endIndex, offsetBy: -decimals))
            }
            if Bool.random(using: &generator) { text += "e\(exponent)" }
            texts.append(text)
        }
        for text in texts {
            var copy = text
            let parsed = copy.withUTF8 { CSVNumberParser.parse($0) }
            let expected = Double(text)
            if let expected, expected.isNaN {
                XCTAssertTrue(parsed?.isNaN ?? false, text)
            } else {
                XCTAssertEqual(parsed?.bitPattern, expected?.bitPattern, text)
            }
        }
    }
}

import Foundation

/// Reads an accelerometer CSV file, `timestamp,x,y,z`, one reading at a time, converted to g.
///
/// The unit is stated by a comment before the data (`# units: m/s^2`), by the header's column names
/// (`x_ms2,y_ms2,z_ms2` or `x_g,…`), or by the caller; statements that disagree are an error, so a file is never
/// read in the wrong unit. Without a statement it is detected from the readings' median magnitude
/// (`AccelerometerUnitReport`).
package final class AccelerometerCSVReader {
    /// The unit the file's values are in, and how it was decided.
    let unitReport: AccelerometerUnitReport
    /// The unit the file's values are in.
    package var unit: AccelerationUnit { unitReport.unit }

    private let rows: SensorCSVReader

    /// The digest of the file's bytes read so far.
    var content: ContentDigest { rows.content }

    /// Opens `url` and reads its header and first row.
    ///
    /// - Parameters:
    ///   - url: The CSV file.
    ///   - startTime: What relative timestamps count from.
    ///   - unit: The unit the caller says the file is in, or nil to take the file's word (else detect it).
    ///   - localZone: The zone of timestamps written without one (nil: they are errors).
    ///   - oneNight: Whether the rows must form one night (`SensorCSVReader.maximumNightSpan`, `maximumNightGap`).
    /// - Throws: `CSVError` for a missing or unreadable file, a bad header, first row or units statement.
    package init(
        url: URL, startTime: Date, unit: AccelerationUnit? = nil, localZone: TimeZone? = nil, oneNight: Bool = false
    ) throws(CSVError) {
        let columns = ["timestamp", "x", "y", "z"]
        rows = try SensorCSVReader(
            url: url, defaultColumns: columns, startTime: startTime, localZone: localZone, oneNight: oneNight)
        if let stated = try Self.statedUnit(of: rows, callerUnit: unit) {
            unitReport = stated
        } else {
            unitReport = AccelerometerUnitReport.detect(
                try SensorCSVReader(url: url, defaultColumns: columns, startTime: startTime, localZone: localZone))
        }
    }

    /// Returns the next reading in g, or nil at the end of the file.
    ///
    /// - Throws: `CSVError` for the first malformed row.
    package func next() throws(CSVError) -> AccelerometerSample? {
        guard let row = try rows.next() else { return nil }
        let scale = unit.toG
        return AccelerometerSample(
            timestamp: row.timestamp, x: row.values[0] * scale, y: row.values[1] * scale, z: row.values[2] * scale)
    }

    /// The unit the file's comments and columns and the caller state (nil when none does).
    private static func statedUnit(
        of rows: SensorCSVReader, callerUnit: AccelerationUnit?
    ) throws(CSVError) -> AccelerometerUnitReport? {
        var statements: [(unit: AccelerationUnit, line: Int, origin: String)] = []
        for comment in rows.preambleComments {
            guard let colon = comment.text.firstIndex(of: ":") else { continue }
            let key = comment.text[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            guard key == "units" || key == "unit" else { continue }
            let value = comment.text[comment.text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard let unit = AccelerationUnit(spelling: value) else {
                throw CSVError(path: rows.path, line: comment.line, reason: .unknownUnit(value))
            }
            statements.append((unit, comment.line, "comment"))
        }
        if let headerLine = rows.headerLine {
            for name in rows.columnNames.dropFirst() {
                if let unit = AccelerationUnit(columnName: name) {
                    statements.append((unit, headerLine, "column '\(name)'"))
                }
            }
        }
        if let callerUnit { statements.append((callerUnit, 0, "caller")) }

        guard let first = statements.first else { return nil }
        for statement in statements.dropFirst() where statement.unit != first.unit {
            let why = "\(first.origin) says \(first.unit.rawValue), \(statement.origin) says \(statement.unit.rawValue)"
            throw CSVError(path: rows.path, line: max(statement.line, first.line), reason: .conflictingUnits(why))
        }
        return AccelerometerUnitReport(unit: first.unit, source: .stated(first.origin))
    }
}

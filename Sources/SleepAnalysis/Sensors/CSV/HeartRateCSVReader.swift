import Foundation

/// Reads a heart-rate CSV file, `timestamp,bpm`, one reading at a time. A rate must be positive.
package final class HeartRateCSVReader {
    private let rows: SensorCSVReader

    /// The digest of the file's bytes read so far.
    var content: ContentDigest { rows.content }

    /// Opens `url` and reads its header and first row; with `oneNight`, its rows must form one night
    /// (`SensorCSVReader.maximumNightSpan`, `maximumNightGap`).
    ///
    /// - Throws: `CSVError` for a missing or unreadable file, a bad header or first row.
    package init(url: URL, startTime: Date, localZone: TimeZone? = nil, oneNight: Bool = false) throws(CSVError) {
        rows = try SensorCSVReader(
            url: url, defaultColumns: ["timestamp", "bpm"], startTime: startTime, localZone: localZone,
            oneNight: oneNight)
    }

    /// Returns the next reading, or nil at the end of the file.
    ///
    /// - Throws: `CSVError` for the first malformed row or a rate that is not positive.
    package func next() throws(CSVError) -> HeartRateSample? {
        guard let row = try rows.next() else { return nil }
        guard row.values[0] > 0 else {
            throw CSVError(
                path: rows.path, line: row.line,
                reason: .valueOutOfRange(column: rows.columnNames[1], value: row.values[0]))
        }
        return HeartRateSample(timestamp: row.timestamp, bpm: row.values[0])
    }
}

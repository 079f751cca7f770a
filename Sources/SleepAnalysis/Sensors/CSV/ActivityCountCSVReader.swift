import Foundation

/// Reads an epoch-level actigraphy CSV file, `timestamp,activity_count`, one epoch at a time. A count must not
/// be negative.
package final class ActivityCountCSVReader {
    private let rows: SensorCSVReader

    /// The digest of the file's bytes read so far.
    var content: ContentDigest { rows.content }

    /// Opens `url` and reads its header and first row; with `oneNight`, its rows must form one night
    /// (`SensorCSVReader.maximumNightSpan`, `maximumNightGap`).
    ///
    /// - Throws: `CSVError` for a missing or unreadable file, a bad header or first row.
    package init(url: URL, startTime: Date, localZone: TimeZone? = nil, oneNight: Bool = false) throws(CSVError) {
        rows = try SensorCSVReader(
            url: url, defaultColumns: ["timestamp", "activity_count"], startTime: startTime, localZone: localZone,
            oneNight: oneNight)
    }

    /// Returns the next epoch, or nil at the end of the file.
    ///
    /// - Throws: `CSVError` for the first malformed row or a negative count.
    package func next() throws(CSVError) -> ActivityCountSample? {
        guard let row = try rows.next() else { return nil }
        guard row.values[0] >= 0 else {
            throw CSVError(
                path: rows.path, line: row.line,
                reason: .valueOutOfRange(column: rows.columnNames[1], value: row.values[0]))
        }
        return ActivityCountSample(timestamp: row.timestamp, activityCount: row.values[0])
    }
}

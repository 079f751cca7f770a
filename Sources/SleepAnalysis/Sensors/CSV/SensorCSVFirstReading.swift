import Foundation

/// When a sensor CSV file's first reading was taken, if its timestamps say so on their own: a night of sensor files
/// without audio or a given start begins there.
package enum SensorCSVFirstReading {
    /// The first data row's timestamp when it is absolute (Unix epoch seconds or ISO 8601), or nil when it counts
    /// from a start time (relative seconds), or when the file has no data row the timestamp parser reads (the file's
    /// own reader then says what is wrong with it). Only the first lines are read.
    ///
    /// - Parameters:
    ///   - url: The CSV file.
    ///   - localZone: The zone of timestamps written without one (nil: they are not read).
    /// - Returns: The first reading's time, or nil.
    /// - Throws: `CSVError` for a missing or unreadable file.
    package static func absoluteTime(of url: URL, localZone: TimeZone?) throws(CSVError) -> Date? {
        let lines = try CSVLineReader(url: url)
        var candidates = 0
        // The first line that is neither blank nor a comment may be a header; the next one is a data row.
        while candidates < 2, let bytes = try lines.nextLineBytes() {
            var lower = 0
            while lower < bytes.count, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
            if lower == bytes.count || bytes[lower] == UInt8(ascii: "#") { continue }
            candidates += 1
            var upper = lower
            while upper < bytes.count, bytes[upper] != UInt8(ascii: ",") { upper += 1 }
            while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
            let field = UnsafeBufferPointer(rebasing: bytes[lower..<upper])
            // A relative timestamp moves with the start time it counts from; an absolute one does not.
            let early = CSVTimestampParser.parse(field, startTime: Date(timeIntervalSince1970: 0), localZone: localZone)
            guard case .date(let date) = early else { continue }
            let late = CSVTimestampParser.parse(field, startTime: Date(timeIntervalSince1970: 1), localZone: localZone)
            return late == early ? date : nil
        }
        return nil
    }
}

import Foundation

/// Reads a sensor CSV file — a timestamp column then one to four numeric value columns — one row at a time.
///
/// Lines starting with `#` are comments (those before the first data row are kept in `preambleComments`, for
/// statements such as `# units: m/s^2`); blank lines are skipped. The first other line is a header when its
/// first field is not a timestamp; a header must have the expected column count, and there is at most one. Every
/// data row is checked: column count, a timestamp (see `CSVTimestampParser`) within `plausibleSpan(around:)` the
/// start, finite numbers, timestamps never going backwards. A file without a data row is rejected.
/// The first failure throws a `CSVError` with the line number. Rows are parsed from the line's bytes in place,
/// without allocating. Not thread-safe: use it from one thread.
final class SensorCSVReader {
    /// One data row.
    struct Row {
        /// The row's 1-based line number.
        var line: Int
        /// When the reading was taken.
        var timestamp: Date
        /// The value columns, in file order (unused lanes are 0).
        var values: SIMD4<Double>
    }

    /// A comment line before the first data row.
    struct Comment {
        /// Its 1-based line number.
        var line: Int
        /// The text after `#`, trimmed.
        var text: String
    }

    /// The file's path, for messages.
    var path: String { lines.path }
    /// The column names: the header's (trimmed, lowercased) when there is one, else the defaults.
    private(set) var columnNames: [String]
    /// The header's line number, or nil without a header.
    private(set) var headerLine: Int?
    /// Comments before the first data row.
    private(set) var preambleComments: [Comment] = []
    /// The digest of the file's bytes read so far (`ContentDigest.byteCount` of them).
    var content: ContentDigest { lines.content }

    /// The longest a night's rows may span, from the night's start (or its first row, when earlier): 24 hours.
    static let maximumNightSpan: TimeInterval = 24 * 3_600
    /// The longest gap between consecutive rows of one night: 4 hours.
    static let maximumNightGap: TimeInterval = 4 * 3_600

    private let lines: CSVLineReader
    private let startTime: Date
    /// Whether the rows must form one night (`maximumNightSpan`, `maximumNightGap`).
    private let oneNight: Bool
    private var nightOrigin: Date?
    private var previousLine = 0
    private let localZone: TimeZone?
    private var pendingRow: Row?
    private var previousTimestamp: Date?
    private var fields: [Range<Int>] = []

    /// Opens `url` and reads up to and including its first data row, so a bad header or first row throws here.
    ///
    /// - Parameters:
    ///   - url: The CSV file.
    ///   - defaultColumns: The expected column names, timestamp first, then one to four value columns.
    ///   - startTime: What relative timestamps count from.
    ///   - localZone: The zone of timestamps written without one (nil: they are errors).
    ///   - oneNight: Whether the rows must form one night: a row more than `maximumNightSpan` after the start (or
    ///     the first row, when earlier) or `maximumNightGap` after the row before it is an error.
    /// - Throws: `CSVError` for a missing or unreadable file, a bad header, a bad first row or no data row.
    init(
        url: URL, defaultColumns: [String], startTime: Date, localZone: TimeZone? = nil, oneNight: Bool = false
    ) throws(CSVError) {
        precondition((2...5).contains(defaultColumns.count), "a timestamp and one to four value columns")
        lines = try CSVLineReader(url: url)
        self.oneNight = oneNight
        columnNames = defaultColumns
        self.startTime = startTime
        self.localZone = localZone
        fields.reserveCapacity(8)
        try readPreamble()
    }

    /// Returns the next data row, or nil at the end of the file.
    ///
    /// - Throws: `CSVError` for the first malformed row.
    func next() throws(CSVError) -> Row? {
        if let row = pendingRow {
            pendingRow = nil
            return row
        }
        while let bytes = try lines.nextLineBytes() {
            let line = Self.trimmed(bytes, 0..<bytes.count)
            if line.isEmpty || bytes[line.lowerBound] == UInt8(ascii: "#") { continue }
            return try parseRow(bytes, line)
        }
        return nil
    }

    private func readPreamble() throws(CSVError) {
        while let bytes = try lines.nextLineBytes() {
            let line = Self.trimmed(bytes, 0..<bytes.count)
            if line.isEmpty { continue }
            if bytes[line.lowerBound] == UInt8(ascii: "#") {
                let text = try text(bytes, line.dropFirst())
                preambleComments.append(
                    Comment(line: lines.lineNumber, text: text.trimmingCharacters(in: .whitespaces)))
                continue
            }
            try split(bytes, line)
            let first = UnsafeBufferPointer(rebasing: bytes[fields[0]])
            if headerLine == nil, case .unparsable = CSVTimestampParser.parse(first, startTime: startTime) {
                guard fields.count == columnNames.count else {
                    throw CSVError(
                        path: path, line: lines.lineNumber,
                        reason: .wrongColumnCount(expected: columnNames.count, found: fields.count))
                }
                var names: [String] = []
                for field in fields { names.append(try text(bytes, field).lowercased()) }
                headerLine = lines.lineNumber
                columnNames = names
                continue
            }
            pendingRow = try parseRow(bytes, line)
            return
        }
        throw CSVError(path: path, line: 0, reason: .noDataRows(hasHeader: headerLine != nil))
    }

    private func parseRow(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(CSVError) -> Row {
        let number = lines.lineNumber
        try split(bytes, line)
        guard fields.count == columnNames.count else {
            throw CSVError(
                path: path, line: number, reason: .wrongColumnCount(expected: columnNames.count, found: fields.count))
        }
        for (index, field) in fields.enumerated() where field.isEmpty {
            throw CSVError(
                path: path, line: number, reason: .malformedRow("empty field in column '\(columnNames[index])'"))
        }

        let timestamp: Date
        switch CSVTimestampParser.parse(
            UnsafeBufferPointer(rebasing: bytes[fields[0]]), startTime: startTime, localZone: localZone)
        {
        case .date(let date):
            timestamp = date
        case .nonFinite:
            throw CSVError(
                path: path, line: number,
                reason: .nonFiniteValue(column: columnNames[0], text: try text(bytes, fields[0])))
        case .unparsable:
            throw CSVError(path: path, line: number, reason: .unparsableTimestamp(try text(bytes, fields[0])))
        case .repeatedLocalTime(let earlier, let later):
            // The hour the clocks went back through comes twice: a row earlier than the one before it is the second.
            timestamp = previousTimestamp.map { earlier < $0 } ?? false ? later : earlier
        case .skippedLocalTime:
            throw CSVError(
                path: path, line: number,
                reason: .skippedLocalTime(try text(bytes, fields[0]), zone: localZone?.identifier ?? "?"))
        }
        guard Self.plausibleSpan(around: startTime).contains(timestamp) else {
            throw CSVError(path: path, line: number, reason: .timestampOutOfRange(timestamp, start: startTime))
        }
        if let previousTimestamp, timestamp < previousTimestamp {
            throw CSVError(
                path: path, line: number,
                reason: .timestampWentBackwards(previous: previousTimestamp, current: timestamp))
        }
        if oneNight { try checkOneNight(timestamp, line: number) }

        var values = SIMD4<Double>()
        for index in 1..<fields.count {
            guard let value = CSVNumberParser.parse(UnsafeBufferPointer(rebasing: bytes[fields[index]])) else {
                throw CSVError(
                    path: path, line: number,
                    reason: .unparsableNumber(column: columnNames[index], text: try text(bytes, fields[index])))
            }
            guard value.isFinite else {
                throw CSVError(
                    path: path, line: number,
                    reason: .nonFiniteValue(column: columnNames[index], text: try text(bytes, fields[index])))
            }
            values[index - 1] = value
        }
        previousTimestamp = timestamp
        previousLine = number
        return Row(line: number, timestamp: timestamp, values: values)
    }

    /// Throws unless the row at `timestamp` belongs to the same night as the rows before it.
    private func checkOneNight(_ timestamp: Date, line: Int) throws(CSVError) {
        let origin = nightOrigin ?? min(startTime, timestamp)
        nightOrigin = origin
        if let previousTimestamp, timestamp.timeIntervalSince(previousTimestamp) > Self.maximumNightGap {
            throw CSVError(
                path: path, line: line,
                reason: .notOneNight(
                    gap: timestamp.timeIntervalSince(previousTimestamp), span: nil, previousLine: previousLine))
        }
        if timestamp.timeIntervalSince(origin) > Self.maximumNightSpan {
            throw CSVError(
                path: path, line: line,
                reason: .notOneNight(gap: nil, span: timestamp.timeIntervalSince(origin), previousLine: nil))
        }
    }

    /// The times a row may carry: from a day before the source's start to 31 days after it (multi-day actigraphy
    /// fits; a wrong `--start` or a stray year does not, and would otherwise stretch the night without end).
    static func plausibleSpan(around start: Date) -> ClosedRange<Date> {
        start.addingTimeInterval(-86_400)...start.addingTimeInterval(31 * 86_400)
    }

    /// Splits `line` of `bytes` on commas into `fields`, each trimmed of spaces and tabs.
    ///
    /// - Throws: `CSVError` `.malformedRow` when the line is not UTF-8.
    private func split(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(CSVError) {
        fields.removeAll(keepingCapacity: true)
        var fieldStart = line.lowerBound
        var isASCII = true
        for index in line {
            let byte = bytes[index]
            if byte >= 0x80 { isASCII = false }
            if byte == UInt8(ascii: ",") {
                fields.append(Self.trimmed(bytes, fieldStart..<index))
                fieldStart = index + 1
            }
        }
        fields.append(Self.trimmed(bytes, fieldStart..<line.upperBound))
        if !isASCII, String(validating: UnsafeBufferPointer(rebasing: bytes[line]), as: UTF8.self) == nil {
            throw CSVError(path: path, line: lines.lineNumber, reason: .malformedRow("not UTF-8 text"))
        }
    }

    /// The text of `range`, for names and messages.
    ///
    /// - Throws: `CSVError` `.malformedRow` when it is not UTF-8.
    private func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(CSVError) -> String {
        guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw CSVError(path: path, line: lines.lineNumber, reason: .malformedRow("not UTF-8 text"))
        }
        return text
    }

    /// `range` without leading and trailing spaces and tabs.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }
}

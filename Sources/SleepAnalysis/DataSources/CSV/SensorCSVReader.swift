import Foundation

/// Reads a sensor CSV file — a timestamp column then numeric value columns — one row at a time.
///
/// Lines starting with `#` are comments (those before the first data row are kept in `preambleComments`, for
/// statements such as `# units: m/s^2`); blank lines are skipped. The first other line is a header when its
/// first field is not a timestamp; a header must have the expected column count. Every data row is checked:
/// column count, a timestamp (see `CSVTimestampParser`), finite numbers, timestamps never going backwards.
/// The first failure throws a `CSVError` with the line number. Not thread-safe: use it from one thread.
final class SensorCSVReader {
    /// One data row.
    struct Row {
        /// The row's 1-based line number.
        var line: Int
        /// When the reading was taken.
        var timestamp: Date
        /// The value columns, in file order.
        var values: [Double]
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

    private let lines: CSVLineReader
    private let startTime: Date
    private var pendingRow: Row?
    private var previousTimestamp: Date?

    /// Opens `url` and reads up to and including its first data row, so a bad header or first row throws here.
    ///
    /// - Parameters:
    ///   - url: The CSV file.
    ///   - defaultColumns: The expected column names, timestamp first (used for messages without a header).
    ///   - startTime: What relative timestamps count from.
    /// - Throws: `CSVError` for a missing or unreadable file, a bad header or a bad first row.
    init(url: URL, defaultColumns: [String], startTime: Date) throws(CSVError) {
        lines = try CSVLineReader(url: url)
        columnNames = defaultColumns
        self.startTime = startTime
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
        while let line = try lines.nextLine() {
            if let row = try parse(line: line, number: lines.lineNumber) { return row }
        }
        return nil
    }

    private func readPreamble() throws(CSVError) {
        while let line = try lines.nextLine() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("#") {
                let text = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
                preambleComments.append(Comment(line: lines.lineNumber, text: text))
                continue
            }
            let fields = Self.fields(of: trimmed)
            let firstField = fields.first ?? ""
            if case .unparsable = CSVTimestampParser.parse(firstField, startTime: startTime), headerLine == nil {
                guard fields.count == columnNames.count else {
                    throw CSVError(path: path, line: lines.lineNumber,
                                   reason: .wrongColumnCount(expected: columnNames.count, found: fields.count))
                }
                headerLine = lines.lineNumber
                columnNames = fields.map { $0.lowercased() }
                continue
            }
            pendingRow = try parse(line: line, number: lines.lineNumber)
            return
        }
    }

    private func parse(line: String, number: Int) throws(CSVError) -> Row? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        let fields = Self.fields(of: trimmed)
        guard fields.count == columnNames.count else {
            throw CSVError(path: path, line: number,
                           reason: .wrongColumnCount(expected: columnNames.count, found: fields.count))
        }
        for (index, field) in fields.enumerated() where field.isEmpty {
            throw CSVError(path: path, line: number, reason: .malformedRow("empty field in column '\(columnNames[index])'"))
        }

        let timestamp: Date
        switch CSVTimestampParser.parse(fields[0], startTime: startTime) {
        case .date(let date): timestamp = date
        case .nonFinite:
            throw CSVError(path: path, line: number, reason: .nonFiniteValue(column: columnNames[0], text: String(fields[0])))
        case .unparsable:
            throw CSVError(path: path, line: number, reason: .unparsableTimestamp(String(fields[0])))
        }
        if let previousTimestamp, timestamp < previousTimestamp {
            throw CSVError(path: path, line: number,
                           reason: .timestampWentBackwards(previous: previousTimestamp, current: timestamp))
        }

        var values: [Double] = []
        values.reserveCapacity(fields.count - 1)
        for index in 1..<fields.count {
            guard let value = Double(fields[index]) else {
                throw CSVError(path: path, line: number,
                               reason: .unparsableNumber(column: columnNames[index], text: String(fields[index])))
            }
            guard value.isFinite else {
                throw CSVError(path: path, line: number,
                               reason: .nonFiniteValue(column: columnNames[index], text: String(fields[index])))
            }
            values.append(value)
        }
        previousTimestamp = timestamp
        return Row(line: number, timestamp: timestamp, values: values)
    }

    /// Splits a line on commas and trims each field.
    private static func fields(of line: String) -> [Substring] {
        line.split(separator: ",", omittingEmptySubsequences: false).map { field in
            var field = field
            while let first = field.first, first == " " || first == "\t" { field.removeFirst() }
            while let last = field.last, last == " " || last == "\t" { field.removeLast() }
            return field
        }
    }
}

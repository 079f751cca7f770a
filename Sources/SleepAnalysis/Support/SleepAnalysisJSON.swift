import Foundation

/// The one JSON contract of every document the package writes: the command-line tool's `--format json` outputs,
/// the fleet's results and the HTTP service's bodies.
///
/// - Keys are the Swift property names, sorted; documents are pretty-printed with two-space indents and slashes
///   are not escaped.
/// - Instants are ISO 8601 in UTC with milliseconds (`2026-12-01T23:00:00.000Z`), durations are seconds.
/// - Session ids are `UUID`s in Foundation's form (upper-case hexadecimal); readers accept either case.
/// - Time zones are IANA identifiers (`"Europe/Berlin"`).
/// - A non-finite number, which no result should hold, is written as the string `"nan"`, `"inf"` or `"-inf"`
///   rather than failing the whole document.
/// - Every top-level document carries `schemaVersion` (``schemaVersion``); the JSON Schemas in the repository's
///   `Schemas/` folder describe each document of this version.
///
/// ```swift
/// let document = AnalysisResultDocument(result: result, score: SleepScoring.score(result: result))
/// let bytes = try SleepAnalysisJSON.encode(document)
/// ```
public enum SleepAnalysisJSON {
    /// The version of the documents' shape. It grows when a document loses or renames a member or a member
    /// changes its type; adding an optional member keeps it.
    public static let schemaVersion = 1

    /// The encoder every document is written with (see the type's rules).
    ///
    /// - Returns: A new encoder; callers may use it from one thread at a time.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    /// A decoder that reads what ``makeEncoder()`` writes (dates also without milliseconds).
    ///
    /// - Returns: A new decoder.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = date(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "'\(text)' is not an ISO 8601 instant")
            }
            return date
        }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// Encodes a document with ``makeEncoder()``.
    ///
    /// - Parameter value: The document.
    /// - Returns: UTF-8 JSON, without a final line break.
    /// - Throws: `SleepCycleSdkError.invalidInput` when the value cannot be encoded (a value refused by its own
    ///   `encode(to:)`).
    public static func encode(_ value: some Encodable) throws -> Data {
        do {
            return try makeEncoder().encode(value)
        } catch {
            throw SleepCycleSdkError.invalidInput("cannot encode \(type(of: value)) as JSON: \(error)")
        }
    }

    /// An instant as the documents write it: ISO 8601, UTC, milliseconds.
    ///
    /// - Parameter date: The instant.
    /// - Returns: For example `2026-12-01T23:00:00.000Z`.
    public static func timestamp(_ date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    /// Reads an instant written by ``timestamp(_:)``, or one without fractional seconds.
    ///
    /// - Parameter text: ISO 8601 text with a time zone designator.
    /// - Returns: The instant, or nil when the text is not one.
    public static func date(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    /// Encodes a top-level document of one member: `schemaVersion` and `value` under `key`.
    ///
    /// - Parameters:
    ///   - value: The document's content.
    ///   - key: Its member name (`channels`, `nights`).
    ///   - encoder: The encoder.
    package static func encodeDocument(
        _ value: some Encodable, under key: String, to encoder: any Encoder
    ) throws {
        var container = encoder.container(keyedBy: DocumentKey.self)
        try container.encode(schemaVersion, forKey: DocumentKey(stringValue: "schemaVersion"))
        try container.encode(value, forKey: DocumentKey(stringValue: key))
    }

    /// A member name of a document.
    private struct DocumentKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

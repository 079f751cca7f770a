import Foundation

/// One message the library logs, with everything swift-log's `LogHandler` receives: a severity of swift-log's
/// seven levels, the label of the component, the message, structured metadata, and where in the library it was
/// logged (module, file, function, line).
///
/// The names are the library's own (`SleepAnalysisLogRecord.Severity`, `SleepAnalysisLogRecord.MetadataValue`),
/// so a file can import both SleepAnalysis and swift-log and use swift-log's `Logger` and `LogHandler` unqualified.
/// Each case has its swift-log counterpart of the same name, which makes forwarding a one-to-one mapping (see
/// <doc:Logging>).
public struct SleepAnalysisLogRecord: Sendable, CustomStringConvertible {
    /// How severe a message is: swift-log's seven levels, from the most to the least verbose. The raw values are
    /// swift-log's `Logger.Level` raw values.
    public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
        /// Step-by-step tracing, finer than `debug`.
        case trace
        /// Diagnostics.
        case debug
        /// Milestones such as initialization and model downloads.
        case info
        /// Conditions worth noting that need no action, such as running under a development licence.
        case notice
        /// Recoverable problems.
        case warning
        /// Failures the caller is not told about otherwise (a thrown error is its own report and is not logged
        /// at this level).
        case error
        /// Failures that stop the library from working.
        case critical

        /// Orders severities from `trace` to `critical`.
        ///
        /// - Parameters:
        ///   - lhs: A severity.
        ///   - rhs: Another severity.
        /// - Returns: True when `lhs` is less severe than `rhs`.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }

        /// The severity's name in upper case, as log lines print it (`NOTICE`).
        public var description: String { rawValue.uppercased() }

        /// The position in `allCases`, least severe first.
        private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    }

    /// A metadata value, shaped like swift-log's `Logger.MetadataValue`: a string, a value printed through its
    /// description, a dictionary or an array of values.
    public indirect enum MetadataValue: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringLiteral,
        ExpressibleByStringInterpolation, ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral
    {
        /// Text.
        case string(String)
        /// A value kept as is and printed through its description (a number, an identifier).
        case stringConvertible(any CustomStringConvertible & Sendable)
        /// Nested key-value pairs.
        case dictionary(Metadata)
        /// A list of values.
        case array([MetadataValue])

        /// Creates a `.string` value from a literal.
        ///
        /// - Parameter value: The text.
        public init(stringLiteral value: String) { self = .string(value) }

        /// Creates a `.dictionary` value from a literal.
        ///
        /// - Parameter elements: The key-value pairs; a repeated key keeps its last value.
        public init(dictionaryLiteral elements: (String, MetadataValue)...) {
            self = .dictionary(Dictionary(elements, uniquingKeysWith: { $1 }))
        }

        /// Creates an `.array` value from a literal.
        ///
        /// - Parameter elements: The values.
        public init(arrayLiteral elements: MetadataValue...) { self = .array(elements) }

        /// The value as text: strings as they are, dictionaries and arrays in brackets with their keys sorted.
        public var description: String {
            switch self {
            case .string(let text): text
            case .stringConvertible(let value): value.description
            case .dictionary(let entries):
                "[" + entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
            case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
            }
        }

        /// Compares values as swift-log does: by case, and `.stringConvertible` values by their descriptions.
        ///
        /// - Parameters:
        ///   - lhs: A value.
        ///   - rhs: Another value.
        /// - Returns: True when they are the same case with equal contents.
        public static func == (lhs: MetadataValue, rhs: MetadataValue) -> Bool {
            switch (lhs, rhs) {
            case (.string(let left), .string(let right)): left == right
            case (.stringConvertible(let left), .stringConvertible(let right)): left.description == right.description
            case (.dictionary(let left), .dictionary(let right)): left == right
            case (.array(let left), .array(let right)): left == right
            default: false
            }
        }
    }

    /// Metadata: values by key.
    public typealias Metadata = [String: MetadataValue]

    /// How severe the message is.
    public var severity: Severity
    /// The component that logged it (`SleepAnalysis`).
    public var label: String
    /// The text, one line, without a trailing newline.
    public var message: String
    /// Key-value pairs about the message's context (for example `analyzer`), possibly empty.
    public var metadata: Metadata
    /// The module that logged it (`SleepAnalysis`), as swift-log's `source`.
    public var source: String
    /// The file that logged it, as `#fileID` writes it (`SleepAnalysis/LicenseAuthorizer.swift`).
    public var file: String
    /// The function that logged it.
    public var function: String
    /// The line that logged it.
    public var line: UInt

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - severity: How severe the message is.
    ///   - label: The component that logged it.
    ///   - message: The text.
    ///   - metadata: Key-value pairs about the message's context.
    ///   - source: The module that logged it; nil takes it from `file` (the part before the first `/`).
    ///   - file: The file, as `#fileID` writes it.
    ///   - function: The function.
    ///   - line: The line.
    public init(
        severity: Severity, label: String, message: String, metadata: Metadata = [:], source: String? = nil,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        self.severity = severity
        self.label = label
        self.message = message
        self.metadata = metadata
        self.source = source ?? Self.module(ofFileID: file)
        self.file = file
        self.function = function
        self.line = line
    }

    /// The record as one line: severity, label, message, then the metadata as `key=value` in key order
    /// (`[INFO] SleepAnalysis: Licence verified analyzer=night-1`).
    public var description: String {
        let context = metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        return "[\(severity)] \(label): \(message)\(context)"
    }

    /// The module part of a `#fileID` (`SleepAnalysis/File.swift` → `SleepAnalysis`).
    static func module(ofFileID file: String) -> String {
        guard let slash = file.firstIndex(of: "/") else { return file }
        return String(file[..<slash])
    }
}

import Foundation

/// What identifies a data source's input, journaled with each session so that a resume on other input is refused
/// with a message that says what differs, instead of mixing two nights into one.
///
/// A replayed night's fingerprint holds its start time, the options that change how its files are read (the
/// time zone of local sensor times, a stated accelerometer unit), each file's name, and — journaled with every
/// epoch — how much of each file had been read and a digest of all of it (`contents`), taken while it was read. A
/// resume must give the same content (the same digest over the same length; a longer recording of it is fine), the
/// same start and the same options; or a new recording that starts where the journaled night stopped. A live
/// source's fingerprint holds its device. Sources of your own may return nil (not checked).
public struct DataSourceFingerprint: Sendable, Hashable, Codable {
    /// How much of one input had been read, and the digest of it.
    public struct InputContent: Sendable, Hashable, Codable {
        /// How much had been read, in `unit`s.
        public var length: Int64
        /// `frames` (decoded audio frames) or `bytes` (of a text file).
        public var unit: String
        /// The digest of what had been read (16 hex digits).
        public var digest: String

        /// Creates a record of content read.
        ///
        /// - Parameters:
        ///   - length: How much had been read, in `unit`s.
        ///   - unit: `frames` or `bytes`.
        ///   - digest: The digest of what had been read.
        public init(length: Int64, unit: String, digest: String) {
            self.length = length
            self.unit = unit
            self.digest = digest
        }
    }

    /// `file` for a replay, `live` for capture, or your own word.
    public var kind: String
    /// When the input began, for a replay; nil for live capture.
    public var startTime: Date?
    /// Each input by name (`audio`, `accelerometer`, `heartRate`, `activityCounts`, `device`) and its identity (a
    /// file's name, a device's name).
    public var inputs: [String: String]
    /// The options that change how the input is read, by name (`sensorTimeZone`, `accelerometerUnit`); absent when
    /// not given.
    public var options: [String: String]
    /// Each input's content read so far, by input name (empty before the source has read anything).
    public var contents: [String: InputContent]

    /// Creates a fingerprint.
    ///
    /// - Parameters:
    ///   - kind: `file`, `live`, or your own word.
    ///   - startTime: When the input began (nil for live capture).
    ///   - inputs: Each input by name and its identity.
    ///   - options: The options that change how the input is read, by name.
    ///   - contents: Each input's content read so far.
    public init(
        kind: String, startTime: Date?, inputs: [String: String], options: [String: String] = [:],
        contents: [String: InputContent] = [:]
    ) {
        self.kind = kind
        self.startTime = startTime
        self.inputs = inputs
        self.options = options
        self.contents = contents
    }

    private enum CodingKeys: String, CodingKey {
        case kind, startTime, inputs, options, contents
    }

    /// Decodes a fingerprint; journals written before `options` and `contents` existed decode with them empty.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a field is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(String.self, forKey: .kind)
        startTime = try container.decodeIfPresent(Date.self, forKey: .startTime)
        inputs = try container.decode([String: String].self, forKey: .inputs)
        options = try container.decodeIfPresent([String: String].self, forKey: .options) ?? [:]
        contents = try container.decodeIfPresent([String: InputContent].self, forKey: .contents) ?? [:]
    }

    /// What differs between the journaled fingerprint (`self`) and `other` in kind, inputs present and options, one
    /// phrase each; empty when they match. Content and start time are checked against the files themselves
    /// (`FileDataSource`), since `other` has not read anything yet.
    public func differences(from other: DataSourceFingerprint) -> [String] {
        var found: [String] = []
        if kind != other.kind { found.append("the source was \(kind), now \(other.kind)") }
        for name in Set(inputs.keys).symmetricDifference(other.inputs.keys).sorted() {
            found.append(
                "the \(name) input was \(inputs[name].map(Self.quoted) ?? "absent"), "
                    + "now \(other.inputs[name].map(Self.quoted) ?? "absent")")
        }
        if kind == "live", other.kind == "live", inputs != other.inputs {
            found.append(
                "the device was \(Self.quoted(inputs["device"] ?? "")), now \(Self.quoted(other.inputs["device"] ?? ""))"
            )
        }
        for name in Set(options.keys).union(other.options.keys).sorted() where options[name] != other.options[name] {
            found.append(
                "the \(Self.optionPhrase(name)) was \(options[name] ?? "not given"), now \(other.options[name] ?? "not given")"
            )
        }
        return found
    }

    /// How an option is named in messages.
    private static func optionPhrase(_ name: String) -> String {
        switch name {
        case "sensorTimeZone": "time zone of local sensor times (--timezone)"
        case "accelerometerUnit": "accelerometer unit"
        default: "option \(name)"
        }
    }

    /// `name` in quotes with its control characters escaped, for messages.
    static func quoted(_ name: String) -> String {
        "'\(MessageText.escaped(name))'"
    }
}

extension DataSource {
    /// Nil: sources of your own are not checked on resume unless they say what identifies their input.
    public var fingerprint: DataSourceFingerprint? { nil }
}

import Foundation

/// What identifies a data source's input, journaled with each session so that a resume on other input is refused
/// with a message that says what differs, instead of mixing two nights into one.
///
/// A replayed night's fingerprint holds its start time and, for each file, its name, length and a digest of its
/// first and last 64 KiB; a live source's holds its device. Sources of your own may return nil (not checked).
public struct DataSourceFingerprint: Sendable, Hashable, Codable {
    /// `file` for a replay, `live` for capture, or your own word.
    public var kind: String
    /// When the input began, for a replay; nil for live capture.
    public var startTime: Date?
    /// Each input by name (`audio`, `accelerometer`, `heartRate`, `activityCounts`, `device`) and its identity.
    public var inputs: [String: String]

    /// Creates a fingerprint.
    ///
    /// - Parameters:
    ///   - kind: `file`, `live`, or your own word.
    ///   - startTime: When the input began (nil for live capture).
    ///   - inputs: Each input by name and its identity.
    public init(kind: String, startTime: Date?, inputs: [String: String]) {
        self.kind = kind
        self.startTime = startTime
        self.inputs = inputs
    }

    /// What differs between the journaled fingerprint (`self`) and `other`, one phrase each; empty when they match.
    public func differences(from other: DataSourceFingerprint) -> [String] {
        var found: [String] = []
        if kind != other.kind { found.append("the source was \(kind), now \(other.kind)") }
        for name in Set(inputs.keys).union(other.inputs.keys).sorted() where inputs[name] != other.inputs[name] {
            found.append("the \(name) input was \(inputs[name] ?? "absent"), now \(other.inputs[name] ?? "absent")")
        }
        // The very same files under another start time would put the night elsewhere on the clock (a touched
        // file moves a start taken from its modification time). A new recording may start later: only the same
        // input is held to its start.
        if found.isEmpty, let start = startTime, let otherStart = other.startTime,
            abs(start.timeIntervalSince(otherStart)) > 0.001
        {
            found.append(
                "the start time was \(start.formatted(.iso8601)), now \(otherStart.formatted(.iso8601)) "
                    + "(give the same start, e.g. --start \(start.formatted(.iso8601)))")
        }
        return found
    }

    /// A file's identity: its name, its length, and a digest of its first and last 64 KiB (nil when unreadable).
    static func identity(of url: URL) -> String {
        let name = url.lastPathComponent
        // Opening a FIFO would block until a writer comes; special files are refused when the source starts.
        if let kind = RegularFileCheck.specialKind(of: url.path) { return "\(name) (\(kind))" }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return "\(name) (unreadable)" }
        defer { try? handle.close() }
        let window = 65_536
        guard let length = try? handle.seekToEnd() else { return "\(name) (unreadable)" }
        guard var hasher = try? SHA256Hasher() else { return "\(name), \(length) bytes" }
        try? handle.seek(toOffset: 0)
        if let head = try? handle.read(upToCount: window) { hasher.update(head) }
        if length > UInt64(window) {
            try? handle.seek(toOffset: length - UInt64(min(UInt64(window), length - UInt64(window))))
            if let tail = try? handle.read(upToCount: window) { hasher.update(tail) }
        }
        return "\(name), \(length) bytes, digest \(hasher.finalizeHex().prefix(16))"
    }
}

extension DataSource {
    /// Nil: sources of your own are not checked on resume unless they say what identifies their input.
    public var fingerprint: DataSourceFingerprint? { nil }
}

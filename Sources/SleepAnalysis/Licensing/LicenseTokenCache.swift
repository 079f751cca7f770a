import Foundation

/// A record of the licence keys verified in this state directory (`<state>/license`): one JSON file per key, named
/// by the SHA-256 of the key, holding the key itself, when it was recorded, and what it granted then.
///
/// Nothing in it is trusted. Whoever can write the state directory can write these files, so an entry is only a
/// claim: `LicenseAuthorizer` verifies the key it is given from its signature on every use and keeps an entry only
/// if it holds that very key and records exactly what the key grants; any other entry is removed. An entry never
/// grants anything, and an entry for a key that is not given is never read.
///
/// At most `capacity` entries are kept: recording one more removes the oldest (by `Entry/recordedAt`; unreadable
/// files first). The directory has mode 0700 and each file mode 0600, written atomically.
struct LicenseTokenCache: Sendable {
    /// How many entries a cache keeps unless told otherwise.
    static let defaultCapacity = 8
    /// Files larger than this are not read (an entry holds one key of at most `LicenseKey.maximumLength`).
    static let maximumEntryBytes = 64 * 1_024

    /// The cache directory (`<state>/license`).
    let directory: URL
    /// The most entries kept (at least 1).
    let capacity: Int

    /// A cache in `directory` keeping at most `capacity` entries.
    init(directory: URL, capacity: Int = Self.defaultCapacity) {
        self.directory = directory
        self.capacity = max(1, capacity)
    }

    /// One cache file's content.
    struct Entry: Codable, Hashable, Sendable {
        /// The format this build writes and reads. Format 1 held a licence without its key and is ignored.
        static let currentFormat = 2

        /// The entry format.
        var format: Int
        /// The key, as given to `initialize` without surrounding white space.
        var key: String
        /// When the key was verified and recorded.
        var recordedAt: Date
        /// What the key granted when it was recorded.
        var license: License
    }

    /// The key as the cache names and stores it: without surrounding white space, as `LicenseKey` reads it.
    static func normalised(_ apiKey: String) -> String {
        apiKey.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The entry recorded for `apiKey`, unchecked, or nil if there is none (an unreadable file, one too large or
    /// of another format counts as none).
    ///
    /// - Parameter apiKey: The key.
    /// - Returns: The file's content, which the caller must check against the verified key.
    func entry(for apiKey: String) -> Entry? {
        guard let file = try? file(for: apiKey), let entry = Self.read(file), entry.format == Entry.currentFormat
        else { return nil }
        return entry
    }

    /// Records `apiKey`, verified at `date` as granting `license`, then removes the oldest entries beyond
    /// `capacity`.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` if the file cannot be written.
    func record(_ license: License, for apiKey: String, at date: Date = Date()) throws {
        let file = try file(for: apiKey)
        try StorageLocations.prepare(directory)
        try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        do {
            let entry = Entry(
                format: Entry.currentFormat, key: Self.normalised(apiKey), recordedAt: date, license: license)
            try writeOwnerOnly(try Self.encoder.encode(entry), to: file)
        } catch {
            throw SleepCycleSdkError.storageFailure(
                "cannot write the licence cache in \(directory.path): \(error.localizedDescription)")
        }
        evictOldest(keeping: file.lastPathComponent)
    }

    /// Removes the entry for `apiKey`, if any.
    func remove(for apiKey: String) {
        guard let file = try? file(for: apiKey) else { return }
        try? FileManager.default.removeItem(at: file)
    }

    /// Removes every entry, and the directory.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` if the directory exists but cannot be removed.
    func clear() throws {
        guard FileManager.default.fileExists(atPath: directory.path) else { return }
        do {
            try FileManager.default.removeItem(at: directory)
        } catch {
            throw SleepCycleSdkError.storageFailure(
                "cannot remove the licence cache \(directory.path): \(error.localizedDescription)")
        }
    }

    private func file(for apiKey: String) throws -> URL {
        let hash = try SHA256Hasher.hex(of: Data(Self.normalised(apiKey).utf8))
        return directory.appendingPathComponent("\(hash).json")
    }

    /// Removes the oldest entry files until at most `capacity` remain, never `kept` (the one just written).
    private func evictOldest(keeping kept: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let others = names.filter { $0.hasSuffix(".json") && $0 != kept }
        let excess = others.count + 1 - capacity
        guard excess > 0 else { return }
        let dated = others.map { name in
            (date: Self.read(directory.appendingPathComponent(name))?.recordedAt ?? .distantPast, name: name)
        }
        for victim in dated.sorted(by: { ($0.date, $0.name) < ($1.date, $1.name) }).prefix(excess) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(victim.name))
        }
    }

    /// Writes `data` to `file` through a temporary file created with mode 0600 and renamed over it, so the entry is
    /// never readable by others, even for a moment, and never half written.
    private func writeOwnerOnly(_ data: Data, to file: URL) throws {
        let temporary = directory.appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.systemError("cannot create \(temporary.path)") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            // The mode given to open() is narrowed by the umask; make it exactly 0600.
            guard fchmod(descriptor, 0o600) == 0 else { throw Self.systemError("cannot set the mode of a cache file") }
            try handle.write(contentsOf: data)
            try handle.close()
            guard rename(temporary.path, file.path) == 0 else {
                throw Self.systemError("cannot rename a cache file to \(file.path)")
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    private static func systemError(_ what: String) -> SleepCycleSdkError {
        .storageFailure("\(what): \(String(cString: strerror(errno)))")
    }

    /// The entry in `file`, or nil if it is absent, too large or not an entry.
    private static func read(_ file: URL) -> Entry? {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber,
            size.intValue <= maximumEntryBytes, let data = try? Data(contentsOf: file)
        else { return nil }
        return try? decoder.decode(Entry.self, from: data)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

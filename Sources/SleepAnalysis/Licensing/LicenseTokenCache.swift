import Foundation

/// Verified licences cached as JSON in the state directory, one file per key named by the SHA-256 of the key,
/// so a later `initialize` with the same key reuses the verification.
///
/// The cache holds no secret: the file name is a hash, and the content is what the key grants.
struct LicenseTokenCache: Sendable {
    /// The cache directory (`<state>/license`).
    let directory: URL

    /// One cache file's content.
    private struct Entry: Codable {
        /// SHA-256 of the key, in hex.
        var keyHash: String
        /// When it was verified.
        var verifiedAt: Date
        /// The licence.
        var license: License
    }

    /// The cached licence for `apiKey`, or nil if none (or the file is unreadable, which is treated as absent).
    ///
    /// - Parameter apiKey: The key.
    /// - Returns: The cached licence.
    func cachedLicense(for apiKey: String) -> License? {
        guard let hash = try? Self.hash(apiKey), let data = try? Data(contentsOf: file(forHash: hash)) else {
            return nil
        }
        guard let entry = try? Self.decoder.decode(Entry.self, from: data), entry.keyHash == hash else { return nil }
        return entry.license
    }

    /// Caches `license` as verified from `apiKey`.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` if the file cannot be written.
    func store(_ license: License, for apiKey: String, at date: Date = Date()) throws {
        let hash = try Self.hash(apiKey)
        try StorageLocations.prepare(directory)
        do {
            let data = try Self.encoder.encode(Entry(keyHash: hash, verifiedAt: date, license: license))
            try data.write(to: file(forHash: hash), options: .atomic)
        } catch {
            throw SleepCycleSdkError.storageFailure(
                "cannot write the licence cache in \(directory.path): \(error.localizedDescription)")
        }
    }

    /// Removes the cached licence for `apiKey`, if any.
    func remove(for apiKey: String) {
        guard let hash = try? Self.hash(apiKey) else { return }
        try? FileManager.default.removeItem(at: file(forHash: hash))
    }

    /// Removes every cached licence.
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

    private func file(forHash hash: String) -> URL { directory.appendingPathComponent("\(hash).json") }

    private static func hash(_ apiKey: String) throws -> String {
        try SHA256Hasher.hex(of: Data(apiKey.trimmingCharacters(in: .whitespacesAndNewlines).utf8))
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

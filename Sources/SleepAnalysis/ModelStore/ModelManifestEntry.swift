import Foundation

/// One model in a model store's `manifest.json`: `{"name", "version", "file", "size", "sha256"}`.
public struct ModelManifestEntry: Codable, Sendable, Hashable {
    /// The model's name (`events`, `staging`).
    public var name: String
    /// The model's version.
    public var version: String
    /// The file name, relative to the store's base URL.
    public var file: String
    /// The file's size in bytes.
    public var size: Int64
    /// The file's SHA-256, 64 hex digits.
    public var sha256: String

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - name: The model's name.
    ///   - version: Its version.
    ///   - file: The file name under the store's base URL.
    ///   - size: The file's size in bytes.
    ///   - sha256: The file's SHA-256 in hex.
    public init(name: String, version: String, file: String, size: Int64, sha256: String) {
        self.name = name
        self.version = version
        self.file = file
        self.size = size
        self.sha256 = sha256
    }

    /// Checks that the entry can be used safely: a plain file name, a size, a SHA-256.
    ///
    /// - Throws: `SleepCycleSdkError.resourceDownloadFailed` describing the bad field.
    package func validate() throws {
        let badFile = file.isEmpty || file.contains("/") || file.contains("\\") || file.hasPrefix(".")
        let hex = sha256.lowercased()
        guard !badFile, size >= 0, hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) else {
            throw SleepCycleSdkError.resourceDownloadFailed(
                "the manifest entry for '\(name)' is invalid (file '\(file)', size \(size), sha256 '\(sha256)')")
        }
    }
}

import Foundation

/// One model in a model store's `manifest.json`: `{"name", "version", "file", "size", "sha256"}`.
struct ModelManifestEntry: Codable, Sendable, Hashable {
    /// The model's name (a `ModelCatalog` name).
    var name: String
    /// The model's version.
    var version: String
    /// The file name, relative to the store's base URL.
    var file: String
    /// The file's size in bytes.
    var size: Int64
    /// The file's SHA-256, 64 hex digits.
    var sha256: String

    /// Checks that the entry can be used safely: a plain file name, a size, a SHA-256.
    ///
    /// - Throws: `SleepCycleSdkError.resourceDownloadFailed` describing the bad field.
    func validate() throws {
        let badFile = file.isEmpty || file.contains("/") || file.contains("\\") || file.hasPrefix(".")
        let hex = sha256.lowercased()
        guard !badFile, size >= 0, hex.count == 64, hex.allSatisfy({ $0.isHexDigit }) else {
            throw SleepCycleSdkError.resourceDownloadFailed(
                "the manifest entry for '\(name)' is invalid (file '\(file)', size \(size), sha256 '\(sha256)')")
        }
    }
}

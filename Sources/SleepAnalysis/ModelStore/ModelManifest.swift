import Foundation

/// A model store's `manifest.json`: a JSON array of `ModelManifestEntry`.
package struct ModelManifest: Sendable, Hashable {
    /// The manifest's file name under the base URL.
    static let fileName = "manifest.json"
    /// Manifests larger than this are rejected.
    static let maximumBytes = 1 << 20

    /// The entries.
    package let entries: [ModelManifestEntry]

    /// Decodes a manifest.
    ///
    /// - Parameters:
    ///   - data: The JSON.
    ///   - source: Where it came from, for the error message.
    /// - Throws: `SleepCycleSdkError.resourceDownloadFailed` if it is not a manifest.
    package init(decoding data: Data, source: URL) throws {
        do {
            entries = try JSONDecoder().decode([ModelManifestEntry].self, from: data)
        } catch {
            throw SleepCycleSdkError.resourceDownloadFailed(
                "\(source.absoluteString) is not a model manifest (a JSON array of name, version, file, size, sha256)")
        }
    }

    /// The entry for the model called `name`, if listed.
    package func entry(named name: String) -> ModelManifestEntry? { entries.first { $0.name == name } }
}

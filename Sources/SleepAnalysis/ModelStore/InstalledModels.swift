import Foundation

/// The record of downloaded models, `<data>/models/installed.json`: which manifest entries are on disk, from
/// which store, installed by which library version. A later start reuses them without any network request.
package struct InstalledModels: Codable, Sendable, Hashable {
    /// The record's file name inside the models directory.
    package static let fileName = "installed.json"

    /// The library version that downloaded them (a new version checks the manifest again).
    var libraryVersion: String
    /// The store's base URL.
    var baseURL: String
    /// The installed models' manifest entries.
    package var models: [ModelManifestEntry]

    /// Reads the record in `directory`, or nil if there is none or it is unreadable.
    package static func load(from directory: URL) -> InstalledModels? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)) else { return nil }
        return try? JSONDecoder().decode(InstalledModels.self, from: data)
    }

    /// Writes the record into `directory`.
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` if it cannot be written.
    func save(to directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            try encoder.encode(self).write(to: directory.appendingPathComponent(Self.fileName), options: .atomic)
        } catch {
            throw SleepCycleSdkError.storageFailure(
                "cannot write the model record in \(directory.path): \(error.localizedDescription)")
        }
    }

    /// The installed entry for `name`, if any.
    func entry(named name: String) -> ModelManifestEntry? { models.first { $0.name == name } }
}

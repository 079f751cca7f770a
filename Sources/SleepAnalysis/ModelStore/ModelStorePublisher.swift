import Foundation

/// Builds a model store that slim-mode `initialize` downloads from: the library's model files, each named
/// `<name>-<version>.<ext>`, and a `manifest.json` listing their name, version, file, size and SHA-256. Serve the
/// folder over HTTP(S), or use it directly as a `file://` store.
public enum ModelStorePublisher {
    /// Copies the models into `destination` and writes its manifest.
    ///
    /// - Parameters:
    ///   - source: The folder holding the model files (`events.bin`, `staging.json`); nil for the bundled `Models/`.
    ///   - destination: The store folder (created if needed; existing files of the same names are replaced).
    ///   - version: The version written into the manifest and file names (default: the library version).
    /// - Returns: The manifest entries written.
    /// - Throws: `SleepCycleSdkError.modelUnavailable` naming models missing from `source`;
    ///   `.invalidConfiguration` for a version that cannot be part of a file name; `.storageFailure` on write errors.
    @discardableResult
    public static func publish(
        from source: URL? = nil, to destination: URL, version: String = SleepAnalysisVersion.current
    ) throws -> [ModelManifestEntry] {
        try publish(from: source, to: destination, version: version, catalog: .standard)
    }

    /// `publish` with an explicit catalog (for tests).
    static func publish(
        from source: URL?, to destination: URL, version: String, catalog: ModelCatalog
    ) throws -> [ModelManifestEntry] {
        guard !version.isEmpty, version.allSatisfy({ $0.isLetter || $0.isNumber || "._-+".contains($0) }) else {
            throw SleepCycleSdkError.invalidConfiguration(
                "the model version '\(version)' may only hold letters, digits and . _ - +")
        }
        let folder = source ?? ModelProvisioner.libraryBundledModels
        let missing = catalog.entries.filter { entry in
            folder.map { !FileManager.default.fileExists(atPath: $0.appendingPathComponent(entry.fileName).path) }
                ?? true
        }
        guard missing.isEmpty, let folder else {
            throw SleepCycleSdkError.modelUnavailable(missing.map(\.name).joined(separator: ", "))
        }
        try StorageLocations.prepare(destination)
        var entries: [ModelManifestEntry] = []
        for model in catalog.entries {
            let input = folder.appendingPathComponent(model.fileName)
            let name = URL(fileURLWithPath: model.fileName)
            let ext = name.pathExtension.isEmpty ? "" : ".\(name.pathExtension)"
            let file = "\(model.name)-\(version)\(ext)"
            let output = destination.appendingPathComponent(file)
            do {
                if FileManager.default.fileExists(atPath: output.path) {
                    try FileManager.default.removeItem(at: output)
                }
                try FileManager.default.copyItem(at: input, to: output)
            } catch {
                throw SleepCycleSdkError.storageFailure("cannot copy \(input.path) to \(output.path): \(error)")
            }
            let size =
                ((try? FileManager.default.attributesOfItem(atPath: output.path))?[.size] as? NSNumber)?
                .int64Value ?? 0
            entries.append(
                ModelManifestEntry(
                    name: model.name, version: version, file: file, size: size,
                    sha256: try SHA256Hasher.hex(ofFile: output)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try encoder.encode(entries).write(
                to: destination.appendingPathComponent(ModelManifest.fileName), options: .atomic)
        } catch {
            throw SleepCycleSdkError.storageFailure("cannot write the manifest in \(destination.path): \(error)")
        }
        return entries
    }
}

import Foundation

/// Makes the models the licence's features need ready on this machine, for `initialize`.
///
/// Bundled mode finds them in the library's `Models/` folder. Slim mode reads `<base>/manifest.json`, downloads
/// only the needed models into the data directory (resuming partial files with Range requests, reporting progress
/// 0...1, checking each SHA-256) and records them so later starts reuse them without any network request.
struct ModelProvisioner: Sendable {
    /// The models this build uses.
    let catalog: ModelCatalog
    /// Bundled or slim.
    let mode: ModelProvisioningMode
    /// Where slim mode keeps downloads (`<data>/models`).
    let modelsDirectory: URL
    /// The bundled `Models/` folder, or nil if the library has none.
    let bundledModelsDirectory: URL?
    /// Fetches model-store files.
    let transport: any ModelTransport
    /// Logs what happens.
    let logger: SDKLogger

    /// Creates a provisioner.
    ///
    /// - Parameters:
    ///   - mode: Bundled or slim.
    ///   - modelsDirectory: Where downloads go (`StorageLocations.modelsDirectory`).
    ///   - catalog: The models this build uses.
    ///   - bundledModelsDirectory: The bundled `Models/` folder (default: the library's resource bundle).
    ///   - transport: The file/network transport.
    ///   - logger: The SDK logger.
    init(
        mode: ModelProvisioningMode, modelsDirectory: URL, catalog: ModelCatalog = .standard,
        bundledModelsDirectory: URL? = Self.libraryBundledModels,
        transport: any ModelTransport = SchemeModelTransport(),
        logger: SDKLogger = .silent
    ) {
        self.catalog = catalog
        self.mode = mode
        self.modelsDirectory = modelsDirectory
        self.bundledModelsDirectory = bundledModelsDirectory
        self.transport = transport
        self.logger = logger
    }

    /// The `Models/` folder of the library's bundled resources (`BundledResources`), or nil when there is none.
    static var libraryBundledModels: URL? { BundledResources.modelsDirectory }

    /// Makes the models `features` need ready.
    ///
    /// - Parameters:
    ///   - features: The licence's features.
    ///   - onProgress: Download progress 0...1, never decreasing, ending at 1 (slim mode only; called from a
    ///     background thread).
    /// - Returns: The ready files.
    /// - Throws: `.modelUnavailable` (bundled file missing), `.resourceUnavailable` (no store, or the manifest lacks
    ///   a needed model), `.resourceDownloadFailed` (network or HTTP failure; call again to resume),
    ///   `.modelIntegrityCheckFailed` (checksum or size mismatch; the bad file is removed), `.storageFailure`.
    func provision(
        for features: SleepAnalysisFeatures, onProgress: (@Sendable (Double) -> Void)? = nil
    ) async throws -> ProvisionedModels {
        let needed = catalog.models(neededFor: features)
        switch mode {
        case .bundled:
            return try provisionBundled(needed)
        case .slim(let baseURL):
            guard !needed.isEmpty else {
                onProgress?(1)
                return ProvisionedModels(catalog: catalog, files: [:])
            }
            guard let baseURL else {
                throw SleepCycleSdkError.resourceUnavailable(needed.map(\.name).joined(separator: ", "))
            }
            return try await provisionSlim(needed, from: baseURL, onProgress: onProgress)
        }
    }

    /// Deletes every downloaded model and partial download (for `clear()`).
    ///
    /// - Throws: `SleepCycleSdkError.storageFailure` if the directory cannot be removed.
    func removeDownloadedModels() throws {
        guard FileManager.default.fileExists(atPath: modelsDirectory.path) else { return }
        do {
            try FileManager.default.removeItem(at: modelsDirectory)
        } catch {
            throw SleepCycleSdkError.storageFailure(
                "cannot remove the downloaded models in \(modelsDirectory.path): \(error.localizedDescription)")
        }
    }

    // MARK: - Bundled

    private func provisionBundled(_ needed: [ModelCatalogEntry]) throws -> ProvisionedModels {
        var files: [String: URL] = [:]
        for entry in needed {
            guard let directory = bundledModelsDirectory else { throw BundledResources.noModelsFolder(entry.name) }
            let url = directory.appendingPathComponent(entry.fileName)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw SleepCycleSdkError.modelUnavailable(entry.name)
            }
            files[entry.name] = url
        }
        logger.debug("Bundled models ready: \(needed.map(\.name)).")
        return ProvisionedModels(catalog: catalog, files: files)
    }

    // MARK: - Slim

    private func provisionSlim(
        _ needed: [ModelCatalogEntry], from baseURL: URL, onProgress: (@Sendable (Double) -> Void)?
    ) async throws -> ProvisionedModels {
        try StorageLocations.prepare(modelsDirectory)
        let lock = try await ModelDirectoryLock.acquire(in: modelsDirectory)
        defer { lock.release() }
        let installed = InstalledModels.load(from: modelsDirectory)
        if let reused = try reuse(needed, installed: installed, baseURL: baseURL) {
            logger.debug("Reusing downloaded models: \(needed.map(\.name)).")
            onProgress?(1)
            return reused
        }

        let manifestURL = baseURL.appendingPathComponent(ModelManifest.fileName)
        let manifest = try ModelManifest(
            decoding: try await transport.fetch(manifestURL, limit: ModelManifest.maximumBytes), source: manifestURL)
        var wanted: [ModelManifestEntry] = []
        for model in needed {
            guard let entry = manifest.entry(named: model.name) else {
                throw SleepCycleSdkError.resourceUnavailable(model.name)
            }
            try entry.validate()
            wanted.append(entry)
        }

        let missing = wanted.filter { !isInstalled($0) }
        let progress = DownloadProgress(
            total: missing.reduce(0) { $0 + $1.size },
            alreadyDone: missing.reduce(0) { done, entry in
                let partial = partialFile(entry, nil).size
                return done + (partial <= entry.size ? partial : 0)
            }, report: onProgress)
        progress.start()
        for entry in missing {
            try await download(entry, from: baseURL, progress: progress)
        }
        progress.finish()

        let sameSource =
            installed?.baseURL == baseURL.absoluteString && installed?.libraryVersion == SleepAnalysisVersion.current
        let kept = sameSource ? installed?.models ?? [] : []
        let record = InstalledModels(
            libraryVersion: SleepAnalysisVersion.current, baseURL: baseURL.absoluteString,
            models: kept.filter { old in !wanted.contains { $0.name == old.name } } + wanted)
        try record.save(to: modelsDirectory)
        logger.info("Models ready: \(wanted.map { "\($0.name) \($0.version)" }.joined(separator: ", ")).")
        return ProvisionedModels(
            catalog: catalog,
            files: Dictionary(uniqueKeysWithValues: wanted.map { ($0.name, finalFile($0)) }))
    }

    /// The needed models from the record, if they were all installed from this store by this library version and
    /// their files are intact; else nil (the manifest is then consulted).
    private func reuse(
        _ needed: [ModelCatalogEntry], installed: InstalledModels?, baseURL: URL
    ) throws -> ProvisionedModels? {
        guard let installed, installed.libraryVersion == SleepAnalysisVersion.current,
            installed.baseURL == baseURL.absoluteString
        else { return nil }
        var files: [String: URL] = [:]
        for model in needed {
            guard let entry = installed.entry(named: model.name), isInstalled(entry) else { return nil }
            files[model.name] = finalFile(entry)
        }
        return ProvisionedModels(catalog: catalog, files: files)
    }

    /// Whether `entry`'s file is on disk with the right size and checksum.
    private func isInstalled(_ entry: ModelManifestEntry) -> Bool {
        let url = finalFile(entry)
        guard fileSize(url) == entry.size, let hash = try? SHA256Hasher.hex(ofFile: url) else { return false }
        return hash == entry.sha256.lowercased()
    }

    /// Downloads one model (resuming its partial file), checks it, and moves it into place.
    private func download(_ entry: ModelManifestEntry, from baseURL: URL, progress: DownloadProgress) async throws {
        let partial = partialFile(entry, progress)
        var offset = partial.size
        if offset > entry.size {
            partial.remove()
            offset = 0
        }
        if offset < entry.size || entry.size == 0 {
            logger.info(
                "Downloading model \(entry.name) \(entry.version) (\(entry.size) bytes"
                    + (offset > 0 ? ", resuming at \(offset))" : ")"))
            defer { partial.close() }
            try await transport.download(baseURL.appendingPathComponent(entry.file), from: offset, into: partial)
        }
        partial.close()
        let received = partial.size
        guard received >= entry.size else {
            throw SleepCycleSdkError.resourceDownloadFailed(
                "the download of '\(entry.name)' ended after \(received) of \(entry.size) bytes; "
                    + "call initialize again to resume")
        }
        guard received == entry.size, try SHA256Hasher.hex(ofFile: partial.url) == entry.sha256.lowercased() else {
            partial.remove()
            logger.debug("Model \(entry.name) failed its integrity check (\(received) bytes); removed.")
            throw SleepCycleSdkError.modelIntegrityCheckFailed(entry.name)
        }
        let destination = finalFile(entry)
        do {
            if FileManager.default.fileExists(atPath: destination.path) {
                try FileManager.default.removeItem(at: destination)
            }
            try FileManager.default.moveItem(at: partial.url, to: destination)
        } catch {
            throw SleepCycleSdkError.storageFailure(
                "cannot move the model into \(destination.path): \(error.localizedDescription)")
        }
    }

    private func finalFile(_ entry: ModelManifestEntry) -> URL { modelsDirectory.appendingPathComponent(entry.file) }

    private func partialFile(_ entry: ModelManifestEntry, _ progress: DownloadProgress?) -> PartialModelFile {
        PartialModelFile(
            entry: entry, directory: modelsDirectory,
            progress: progress ?? DownloadProgress(total: 0, alreadyDone: 0, report: nil))
    }

    private func fileSize(_ url: URL) -> Int64? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value
    }
}

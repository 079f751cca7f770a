import Foundation

extension SleepAnalyzer {
    // MARK: - Set-up and life cycle

    /// Verifies the API key (a signed licence), readies the models its features need, takes the storage
    /// directory for this analyzer and opens its session journal.
    ///
    /// - Parameters:
    ///   - logLevel: The lowest level logged.
    ///   - logger: Where log messages go; nil means standard error (`StandardErrorLogHandler`).
    ///   - apiKey: The licence key (`sa1.<payload>.<signature>`), or `License.developmentKey()` to try the library
    ///     out.
    ///   - forceTokenRefresh: Discard the key's licence cache entry and record it afresh. The key's signature is
    ///     verified on every `initialize` either way, and nothing cached is trusted, so this never changes what is
    ///     granted.
    ///   - telemetry: What telemetry is recorded, and where (default: errors only, to a local spool file).
    ///   - onDownloadProgress: Model download progress 0...1 (slim mode only), from a background thread.
    ///   - storageDirectory: Where state and data go instead of the XDG directories (for services and tests).
    ///   - trustedIssuerKeys: Extra trusted issuer public keys (base64), beside the built-in ones and
    ///     `SLEEPANALYSIS_TRUSTED_KEYS`.
    /// - Returns: The features the licence grants.
    /// - Throws: `.invalidApiKey` (malformed, tampered, expired or untrusted key), `.invalidConfiguration`,
    ///   `.analysisAlreadyRunning` while a data source runs, the model errors (`.resourceUnavailable`,
    ///   `.resourceDownloadFailed`, `.modelNotProvisioned`, `.modelIntegrityCheckFailed`, `.modelUnavailable`),
    ///   `.storageFailure`. A damaged session journal is not an error: it is renamed aside (see
    ///   `SessionJournal.openRecovering(databaseURL:)`), a warning is logged, and a new journal is started.
    @discardableResult
    public func initialize(
        logLevel: LogLevel = .info, logger: (any SleepAnalysisLogHandler)? = nil, apiKey: String,
        forceTokenRefresh: Bool = false, telemetry: TelemetryConfig = TelemetryConfig(),
        onDownloadProgress: (@Sendable (Double) -> Void)? = nil, storageDirectory: URL? = nil,
        trustedIssuerKeys: [String] = []
    ) async throws -> SleepAnalysisFeatures {
        var logger = SDKLogger(threshold: logLevel, destination: logger)
        if let name { logger = logger.with("analyzer", name) }
        guard pipeline == nil else { throw SleepCycleSdkError.analysisAlreadyRunning }
        let locations = StorageLocations.resolve(storageDirectory: storageDirectory)
        lastLocations = locations
        let reporter = TelemetryReporter(
            config: telemetry, defaultSpoolFile: locations.telemetrySpoolFile, logger: logger)
        do {
            _ = try StorageLocations.prepare(locations.stateDirectory)
            _ = try StorageLocations.prepare(locations.dataDirectory)
            // A re-initialization in the same directory keeps its own hold on it.
            let directoryLock =
                try context.flatMap { $0.locations.stateDirectory == locations.stateDirectory ? $0.directoryLock : nil }
                ?? StorageDirectoryLock(directory: locations.stateDirectory)
            let authorizer = LicenseAuthorizer(
                verifier: try LicenseVerifier(trustedIssuerKeys: trustedIssuerKeys).acceptingDevelopment(),
                cache: LicenseTokenCache(directory: locations.licenseCacheDirectory), logger: logger)
            let license = try authorizer.authorize(apiKey: apiKey, forceRefresh: forceTokenRefresh)
            let provisioner = ModelProvisioner(
                mode: try ModelProvisioningMode.resolve(license: license), modelsDirectory: locations.modelsDirectory,
                logger: logger)
            let provisioned = try await provisioner.provision(for: license.features, onProgress: onDownloadProgress)
            let models = try LoadedModels(provisioned: provisioned, features: license.features)
            // A damaged journal is renamed aside (journal.sqlite.corrupt-<time>) and a new one started.
            let (journal, quarantined) = try SessionJournal.openRecovering(
                databaseURL: locations.stateDirectory.appendingPathComponent("journal.sqlite"))
            if let quarantined {
                logger.warning("the session journal \(quarantined); its unfinished sessions cannot be resumed")
                reporter.analytics("journal_quarantined", attributes: ["file": quarantined.movedURL.lastPathComponent])
            }
            if let previous = context?.directoryLock, previous !== directoryLock { previous.release() }
            context = AnalyzerContext(
                license: license, locations: locations, logger: logger, telemetry: reporter, models: models,
                provisioner: provisioner, journal: journal, quarantinedJournal: quarantined,
                directoryLock: directoryLock)
            featureGate.set(license.features)
            state = .initialized
            var attributes = ["features": license.features.enabledNames.joined(separator: ",")]
            if license.isDevelopment { attributes["licence"] = "development" }
            reporter.analytics("initialized", attributes: attributes)
            return license.features
        } catch {
            reporter.failure("initialize", error)
            throw error
        }
    }

    /// Stops the data source and returns to `.uninitialized`. Active sessions are not finalized: they stay in the
    /// journal and can be resumed after the next `initialize`.
    public func deinitialize() async {
        await tearDown(clearingState: false)
    }

    /// Deinitializes, then deletes the licence cache (the record of verified keys) and the downloaded models.
    public func clear() async {
        await tearDown(clearingState: true)
    }
}

extension SleepAnalyzer {
    func tearDown(clearingState: Bool) async {
        await shutDownPipeline()
        if clearingState {
            // Without an active context, clear what the last set-up used (or the default XDG directories).
            let locations = context?.locations ?? lastLocations ?? StorageLocations.resolve(storageDirectory: nil)
            let logger = context?.logger ?? SDKLogger(threshold: .warning)
            do {
                try LicenseTokenCache(directory: locations.licenseCacheDirectory).clear()
                try ModelProvisioner(mode: .bundled, modelsDirectory: locations.modelsDirectory, logger: logger)
                    .removeDownloadedModels()
            } catch {
                logger.error("clear() could not delete everything: \(error)")
                context?.telemetry.failure("clear", error)
            }
        }
        context?.directoryLock.release()
        context = nil
        featureGate.set(nil)
        state = .uninitialized
    }
}

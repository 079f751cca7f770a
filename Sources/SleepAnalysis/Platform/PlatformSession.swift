import Foundation

/// Everything `SleepCycleSdk.initialize` sets up before analysis can start: the filtering logger, telemetry, the
/// storage directories, the verified licence and the ready model files. `clear()` undoes the persistent part.
struct PlatformSession: Sendable {
    /// The SDK logger (level-filtered).
    let logger: SDKLogger
    /// Telemetry, honouring the caller's `TelemetryConfig`.
    let telemetry: TelemetryReporter
    /// The state and data directories.
    let storage: StorageLocations
    /// The verified licence.
    let license: License
    /// Where models came from.
    let modelMode: ModelProvisioningMode
    /// The ready model files, by model name.
    let models: ProvisionedModels

    /// Sets everything up, in order: logger, directories, telemetry, licence (cached verification unless
    /// `forceTokenRefresh`), models (bundled, or downloaded in slim mode).
    ///
    /// - Parameters:
    ///   - logLevel: The lowest level logged.
    ///   - logger: The caller's logger, or nil for standard error.
    ///   - apiKey: The licence key.
    ///   - forceTokenRefresh: Verify the key again even if a verification is cached.
    ///   - telemetry: The caller's telemetry configuration.
    ///   - onDownloadProgress: Slim-mode download progress 0...1.
    ///   - storageDirectory: Overrides the XDG directories (`<dir>/state`, `<dir>/data`).
    ///   - trustedIssuerKeys: Extra trusted issuer public keys (base64).
    ///   - environment: The process environment (injectable for tests).
    /// - Returns: The ready session.
    /// - Throws: `SleepCycleSdkError`: `.invalidApiKey`, `.invalidConfiguration`, `.storageFailure`, or a model
    ///   error (`.resourceUnavailable`, `.resourceDownloadFailed`, `.modelIntegrityCheckFailed`,
    ///   `.modelUnavailable`). Each failure is logged and, with `errorReporting`, recorded as telemetry.
    static func start(
        logLevel: LogLevel, logger: (any Logger)?, apiKey: String, forceTokenRefresh: Bool,
        telemetry: TelemetryConfig, onDownloadProgress: (@Sendable (Double) -> Void)?, storageDirectory: URL?,
        trustedIssuerKeys: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws -> PlatformSession {
        let sdkLogger = SDKLogger(threshold: logLevel, destination: logger)
        let storage = StorageLocations.resolve(storageDirectory: storageDirectory, environment: environment)
        let reporter = TelemetryReporter(
            config: telemetry, defaultSpoolFile: storage.telemetrySpoolFile, logger: sdkLogger)
        do {
            try StorageLocations.prepare(storage.stateDirectory)
            let verifier = try LicenseVerifier(trustedIssuerKeys: trustedIssuerKeys, environment: environment)
            let authorizer = LicenseAuthorizer(
                verifier: verifier, cache: LicenseTokenCache(directory: storage.licenseCacheDirectory),
                logger: sdkLogger)
            let license = try authorizer.authorize(apiKey: apiKey, forceRefresh: forceTokenRefresh)
            let mode = try ModelProvisioningMode.resolve(license: license, environment: environment)
            let provisioner = ModelProvisioner(mode: mode, modelsDirectory: storage.modelsDirectory, logger: sdkLogger)
            let models = try await provisioner.provision(for: license.features, onProgress: onDownloadProgress)
            reporter.analytics(
                "initialize",
                attributes: [
                    "features": license.features.enabledNames.joined(separator: ","),
                    "models": mode == .bundled ? "bundled" : "slim",
                ])
            return PlatformSession(
                logger: sdkLogger, telemetry: reporter, storage: storage, license: license, modelMode: mode,
                models: models)
        } catch {
            reporter.failure("initialize", error)
            throw error
        }
    }

    /// Deletes the persistent state `clear()` removes: cached licences and downloaded models (bundled models and
    /// session journals are untouched).
    ///
    /// - Parameters:
    ///   - storage: The directories of the last `initialize` (or `StorageLocations.resolve(storageDirectory: nil)`).
    ///   - logger: The SDK logger.
    /// - Throws: `SleepCycleSdkError.storageFailure` if a directory cannot be removed.
    static func clearPersistentState(storage: StorageLocations, logger: SDKLogger = .silent) throws {
        try LicenseTokenCache(directory: storage.licenseCacheDirectory).clear()
        try ModelProvisioner(mode: .bundled, modelsDirectory: storage.modelsDirectory, bundledModelsDirectory: nil)
            .removeDownloadedModels()
        logger.info("Cleared the cached licence and downloaded models.")
    }
}

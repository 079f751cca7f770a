import TestSupport
import XCTest

@testable import SleepAnalysis

/// The whole `initialize` set-up and `clear()`, end to end, in a slim `file://` store with dummy model files.
final class PlatformSessionTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var keys: LicenseKeyPair!

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        keys = try LicenseIssuer.generateKeyPair()
    }

    override func tearDown() { directory.remove() }

    /// A `file://` store with dummy "events" and "staging" files.
    private func makeStore() throws -> URL {
        let store = directory.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let events = ModelProvisionerTestKit.bytes(10_000, seed: 3)
        let staging = ModelProvisionerTestKit.bytes(5_000, seed: 4)
        try events.write(to: store.appendingPathComponent("events-v1.bin"))
        try staging.write(to: store.appendingPathComponent("staging-v1.bin"))
        try ModelProvisionerTestKit.manifest([("events", events), ("staging", staging)])
            .write(to: store.appendingPathComponent("manifest.json"))
        return store
    }

    private func start(
        apiKey: String, features: SleepAnalysisFeatures = .all, telemetry: TelemetryConfig = TelemetryConfig(),
        logger: RecordingLogger = RecordingLogger(), forceTokenRefresh: Bool = false, trusted: Bool = true
    ) async throws -> PlatformSession {
        try await PlatformSession.start(
            logLevel: .info, logger: logger, apiKey: apiKey, forceTokenRefresh: forceTokenRefresh,
            telemetry: telemetry, onDownloadProgress: nil,
            storageDirectory: directory.url.appendingPathComponent("sdk"),
            trustedIssuerKeys: trusted ? [keys.publicKeyBase64] : [], environment: [:])
    }

    private func key(features: SleepAnalysisFeatures, store: URL?) throws -> String {
        try LicenseIssuer.issue(
            features: features, expires: Date().addingTimeInterval(3_600), subject: "session", modelStore: store,
            privateKey: keys.privateKey)
    }

    func test_start_verifiesLicence_downloadsNeededModels_andClearRemovesThem() async throws {
        // Given a licence for snoring only, pointing at a file:// store
        let apiKey = try key(features: SleepAnalysisFeatures(snoringDetection: true), store: try makeStore())
        let sink = RecordingTelemetrySink()
        // When the platform starts
        let session = try await start(apiKey: apiKey, telemetry: TelemetryConfig(analytics: true, sink: sink))
        // Then the licence is verified, only the events model is downloaded, and one analytics event is recorded
        XCTAssertEqual(session.license.features, SleepAnalysisFeatures(snoringDetection: true))
        XCTAssertEqual(session.modelMode, .slim(baseURL: session.license.modelStore))
        XCTAssertTrue(FileManager.default.fileExists(atPath: try session.models.url(for: "events").path))
        XCTAssertThrowsError(try session.models.url(for: "staging"))
        XCTAssertEqual(sink.events.map(\.name), ["initialize"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: session.storage.licenseCacheDirectory.path))
        // When cleared
        try PlatformSession.clearPersistentState(storage: session.storage)
        // Then the cached licence and downloaded models are gone
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.storage.licenseCacheDirectory.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: session.storage.modelsDirectory.path))
    }

    func test_start_reusesCachedLicence_untilForceTokenRefresh() async throws {
        let apiKey = try key(features: SleepAnalysisFeatures(multiChannelAnalysis: true), store: nil)
        _ = try await start(apiKey: apiKey)
        let logger = RecordingLogger()
        let cached = try await start(apiKey: apiKey, logger: logger)
        XCTAssertFalse(logger.messages.contains { $0.message.contains("verified") }, "\(logger.messages)")
        let refreshed = RecordingLogger()
        _ = try await start(apiKey: apiKey, logger: refreshed, forceTokenRefresh: true)
        XCTAssertTrue(refreshed.messages.contains { $0.message.contains("verified") }, "\(refreshed.messages)")
        XCTAssertEqual(cached.license.features, SleepAnalysisFeatures(multiChannelAnalysis: true))
    }

    func test_start_failure_isLogged_andReported_asTypedError() async throws {
        // Given a key from an issuer that is not trusted
        let apiKey = try key(features: .all, store: nil)
        let sink = RecordingTelemetrySink()
        let logger = RecordingLogger()
        // Then start fails with invalidApiKey, logs it, and records an error report
        await assertThrowsSdkError({
            try await self.start(apiKey: apiKey, telemetry: TelemetryConfig(sink: sink), logger: logger, trusted: false)
        }) {
            if case .invalidApiKey = $0 { return true }
            return false
        }
        XCTAssertEqual(sink.events.map(\.kind), [.error])
        XCTAssertEqual(logger.messages.filter { $0.level == .error }.count, 1)
    }

    func test_start_inBundledMode_withoutBundledFile_throwsModelUnavailable() async throws {
        // This branch's Models/ folder has no staging model file unless another helper added it.
        guard ProvisionedModelsProbe.bundledFileMissing("staging.json") else {
            throw XCTSkip("the staging model is bundled in this build")
        }
        let apiKey = try key(features: SleepAnalysisFeatures(sleepStaging: true), store: nil)
        await assertThrowsSdkError({ try await self.start(apiKey: apiKey) }) { $0 == .modelUnavailable("staging") }
    }
}

/// Looks into the library's bundled `Models/` folder.
enum ProvisionedModelsProbe {
    static func bundledFileMissing(_ name: String) -> Bool {
        guard let directory = ModelProvisioner.libraryBundledModels else { return true }
        return !FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
    }
}

import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The platform services as `SleepCycleSdk.initialize`, `deinitialize` and `clear` use them: the token cache,
/// telemetry, and slim-mode model errors surfacing from `initialize`.
final class SDKPlatformTests: SDKTestCase {
    private var licenseCache: URL { storage.url.appendingPathComponent("state/license") }
    private var modelsDirectory: URL { storage.url.appendingPathComponent("data/models") }
    private var spoolFile: URL { storage.url.appendingPathComponent("state/telemetry.jsonl") }

    private func initialize(
        _ licence: (apiKey: String, trustedKey: String), logger: RecordingLogger = RecordingLogger(),
        forceTokenRefresh: Bool = false, telemetry: TelemetryConfig = TelemetryConfig(),
        onDownloadProgress: (@Sendable (Double) -> Void)? = nil
    ) async throws -> SleepAnalysisFeatures {
        try await SleepCycleSdk.initialize(
            logLevel: .debug, logger: logger, apiKey: licence.apiKey, forceTokenRefresh: forceTokenRefresh,
            telemetry: telemetry, onDownloadProgress: onDownloadProgress, storageDirectory: storage.url,
            trustedIssuerKeys: [licence.trustedKey])
    }

    /// A licence from a fresh issuer, optionally naming a model store.
    private func licence(
        _ features: SleepAnalysisFeatures, store: URL? = nil
    ) throws -> (apiKey: String, trustedKey: String) {
        let keys = try LicenseIssuer.generateKeyPair()
        let key = try LicenseIssuer.issue(
            features: features, expires: Date().addingTimeInterval(3_600), subject: "sdk-platform",
            modelStore: store, privateKey: keys.privateKey)
        return (key, keys.publicKeyBase64)
    }

    private func cachedTokens() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: licenseCache.path)) ?? []
    }

    func test_initialize_verifiesKeyEveryTime_recordsIt_andClearRemovesIt() async throws {
        // Given a first initialize, which verifies the key and records it in the cache
        let key = try licence(SleepAnalysisFeatures(multiChannelAnalysis: true))
        let first = RecordingLogger()
        _ = try await initialize(key, logger: first)
        XCTAssertTrue(first.messages.contains { $0.message.contains("verified") })
        XCTAssertEqual(cachedTokens().count, 1)
        let recorded = try Data(contentsOf: licenseCache.appendingPathComponent(cachedTokens()[0]))
        // When initializing again after deinitialize, the key is verified again and its entry kept as it was
        await SleepCycleSdk.deinitialize()
        let second = RecordingLogger()
        _ = try await initialize(key, logger: second)
        XCTAssertTrue(second.messages.contains { $0.message.contains("verified") })
        XCTAssertEqual(try Data(contentsOf: licenseCache.appendingPathComponent(cachedTokens()[0])), recorded)
        // When clear() runs, the entry is gone, and the next initialize verifies and records the key again
        await SleepCycleSdk.clear()
        XCTAssertTrue(cachedTokens().isEmpty)
        let third = RecordingLogger()
        _ = try await initialize(key, logger: third)
        XCTAssertTrue(third.messages.contains { $0.message.contains("verified") })
        XCTAssertEqual(cachedTokens().count, 1)
    }

    func test_initialize_forceTokenRefresh_verifiesAgain_andRecordsAfresh() async throws {
        let key = try licence(.none)
        _ = try await initialize(key)
        await SleepCycleSdk.deinitialize()
        let entry = licenseCache.appendingPathComponent(try XCTUnwrap(cachedTokens().first))
        try Data("{}".utf8).write(to: entry)
        let logger = RecordingLogger()
        _ = try await initialize(key, logger: logger, forceTokenRefresh: true)
        XCTAssertTrue(logger.messages.contains { $0.message.contains("verified") })
        XCTAssertTrue(try String(contentsOf: entry, encoding: .utf8).contains(key.apiKey), "recorded afresh")
    }

    func test_initialize_withAnalyticsOff_queuesNothing_butFailuresReachLogger() async throws {
        // Given analytics and error reporting off
        let telemetry = TelemetryConfig(analytics: false, errorReporting: false)
        _ = try await initialize(try licence(.none), telemetry: telemetry)
        await SleepCycleSdk.deinitialize()
        // When an initialize fails
        let logger = RecordingLogger()
        let stranger = try licence(.none)
        do {
            _ = try await initialize(
                (stranger.apiKey, try licence(.none).trustedKey), logger: logger, telemetry: telemetry)
            XCTFail("expected invalidApiKey")
        } catch SleepCycleSdkError.invalidApiKey {}
        // Then nothing was spooled, and the logger saw the failure at debug only: the thrown error is the report
        XCTAssertFalse(FileManager.default.fileExists(atPath: spoolFile.path))
        XCTAssertTrue(logger.messages.contains { $0.level == .debug && $0.message.contains("untrusted issuer") })
        XCTAssertFalse(logger.messages.contains { $0.level >= .warning }, "\(logger.messages)")
    }

    func test_initialize_withAnalyticsOn_spoolsAnonymousEvent_toStateDirectory() async throws {
        _ = try await initialize(try licence(.none), telemetry: TelemetryConfig(analytics: true))
        let events = SpoolFileTelemetrySink(fileURL: spoolFile).spooledEvents()
        XCTAssertEqual(events.map(\.kind), [.analytics])
        let text = try String(contentsOf: spoolFile, encoding: .utf8)
        XCTAssertFalse(text.contains(NSUserName()) && NSUserName().count >= 3)
        XCTAssertFalse(text.contains(storage.url.path))
    }

    func test_initialize_slim_throwsResourceUnavailable_whenStoreLacksNeededModel() async throws {
        // Given a file:// store whose manifest lists only the events model
        let store = storage.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try ModelProvisionerTestKit.manifest([("events", Data([1, 2, 3]))])
            .write(to: store.appendingPathComponent("manifest.json"))
        // Then a licence for sleep staging cannot initialize
        do {
            _ = try await initialize(try licence(SleepAnalysisFeatures(sleepStaging: true), store: store))
            XCTFail("expected resourceUnavailable")
        } catch let error as SleepCycleSdkError {
            XCTAssertEqual(error, .resourceUnavailable("staging"))
        }
        let state = await SleepCycleSdk.currentState
        XCTAssertEqual(state, .uninitialized)
    }

    func test_initialize_slim_throwsIntegrityCheckFailed_forCorruptStoreFile() async throws {
        // Given a store whose staging file does not match its manifest checksum
        let store = storage.url.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let staging = ModelProvisionerTestKit.bytes(4_000, seed: 6)
        try ModelProvisionerTestKit.manifest([("staging", staging)])
            .write(to: store.appendingPathComponent("manifest.json"))
        try Data(staging.reversed()).write(to: store.appendingPathComponent("staging-v1.bin"))
        // Then initialize fails, and no model file is left behind
        do {
            _ = try await initialize(try licence(SleepAnalysisFeatures(sleepStaging: true), store: store))
            XCTFail("expected modelIntegrityCheckFailed")
        } catch let error as SleepCycleSdkError {
            XCTAssertEqual(error, .modelIntegrityCheckFailed("staging"))
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: modelsDirectory.path)) ?? []
        XCTAssertTrue(left.filter { $0.hasSuffix(".bin") || $0.hasSuffix(".partial") }.isEmpty, "\(left)")
    }

    func test_initialize_slim_throwsDownloadFailed_whenStoreUnreachable() async throws {
        let server = try LoopbackHTTPServer()
        let unreachable = server.baseURL.appendingPathComponent("store")
        server.stop()
        do {
            _ = try await initialize(try licence(SleepAnalysisFeatures(audioEvents: true), store: unreachable))
            XCTFail("expected resourceDownloadFailed")
        } catch let error as SleepCycleSdkError {
            guard case .resourceDownloadFailed = error else { return XCTFail("got \(error)") }
        }
    }

    func test_initialize_slim_downloadsBundledModels_withProgress_andClearRemovesThem() async throws {
        // Given a store published from the library's own models (skipped until both are bundled)
        let store = storage.url.appendingPathComponent("store")
        do {
            try ModelStorePublisher.publish(to: store)
        } catch SleepCycleSdkError.modelUnavailable(let missing) {
            throw XCTSkip("needs the bundled models (missing: \(missing))")
        }
        let progress = ModelProvisionerTestKit.ProgressRecorder()
        // When a licence for every feature initializes from it over HTTP
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        for file in try FileManager.default.contentsOfDirectory(atPath: store.path) {
            server.setFile("/store/\(file)", try Data(contentsOf: store.appendingPathComponent(file)))
        }
        let key = try licence(.all, store: server.baseURL.appendingPathComponent("store"))
        _ = try await initialize(key, onDownloadProgress: progress.callback)
        // Then the models were downloaded with progress ending at 1, and clear() removes them
        XCTAssertEqual(progress.values.last, 1)
        XCTAssertEqual(progress.values, progress.values.sorted())
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: modelsDirectory.appendingPathComponent("installed.json").path))
        await SleepCycleSdk.clear()
        XCTAssertFalse(FileManager.default.fileExists(atPath: modelsDirectory.path))
    }
}

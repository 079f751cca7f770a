import TestSupport
import XCTest

@testable import SleepAnalysis

final class ModelProvisionerBundledTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory.remove() }

    private func provisioner(bundled: URL?) -> ModelProvisioner {
        ModelProvisioner(
            mode: .bundled, modelsDirectory: directory.url.appendingPathComponent("data/models"),
            catalog: ModelProvisionerTestKit.catalog, bundledModelsDirectory: bundled)
    }

    func test_bundled_returnsBundledFiles_forNeededModelsOnly() async throws {
        // Given a bundle folder holding both models
        let bundle = directory.url.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data("a".utf8).write(to: bundle.appendingPathComponent("alpha.bin"))
        try Data("b".utf8).write(to: bundle.appendingPathComponent("beta.json"))
        // When provisioning for audio events only
        let models = try await provisioner(bundled: bundle).provision(for: SleepAnalysisFeatures(audioEvents: true))
        // Then alpha is ready from the bundle, and beta is not provisioned
        XCTAssertEqual(try models.url(for: "alpha"), bundle.appendingPathComponent("alpha.bin"))
        XCTAssertThrowsError(try models.url(for: "beta")) {
            XCTAssertEqual($0 as? SleepCycleSdkError, .modelNotProvisioned("beta"))
        }
    }

    func test_bundled_throwsModelUnavailable_whenFileMissing() async throws {
        let bundle = directory.url.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        await assertThrowsSdkError({
            try await self.provisioner(bundled: bundle).provision(for: SleepAnalysisFeatures(sleepStaging: true))
        }) { $0 == .modelUnavailable("beta") }
        await assertThrowsSdkError({
            try await self.provisioner(bundled: nil).provision(for: SleepAnalysisFeatures(audioEvents: true))
        }) {
            // Without a models folder the message also names the places looked in.
            guard case .modelUnavailable(let what) = $0 else { return false }
            return what.hasPrefix("alpha: no bundled models folder")
        }
    }

    func test_provisionedModels_beforeProvisioning_throwModelNotProvisioned() {
        XCTAssertThrowsError(try ProvisionedModels.none().url(for: "events")) {
            XCTAssertEqual($0 as? SleepCycleSdkError, .modelNotProvisioned("events"))
        }
    }

    func test_provisionedModels_throwModelUnavailable_forModelNotInCatalog() {
        XCTAssertThrowsError(try ProvisionedModels.none().url(for: "teleportation")) {
            XCTAssertEqual($0 as? SleepCycleSdkError, .modelUnavailable("teleportation"))
        }
    }

    func test_standardCatalog_mapsFeatures_toModels() {
        let catalog = ModelCatalog.standard
        XCTAssertEqual(
            catalog.models(neededFor: SleepAnalysisFeatures(snoringDetection: true)).map(\.name),
            ["events", "events-band-limited"])
        XCTAssertEqual(catalog.models(neededFor: SleepAnalysisFeatures(smartAlarm: true)).map(\.name), ["staging"])
        XCTAssertEqual(catalog.models(neededFor: .all).map(\.name), ["events", "events-band-limited", "staging"])
        XCTAssertTrue(catalog.models(neededFor: SleepAnalysisFeatures(multiChannelAnalysis: true)).isEmpty)
    }

    func test_mode_isBundled_withoutStore_andSlim_withLicenceStoreOrOverride() throws {
        let plain = try license(store: nil)
        let withStore = try license(store: "http://127.0.0.1:9/m")
        XCTAssertEqual(try ModelProvisioningMode.resolve(license: plain, environment: [:]), .bundled)
        XCTAssertEqual(
            try ModelProvisioningMode.resolve(license: withStore, environment: [:]),
            .slim(baseURL: URL(string: "http://127.0.0.1:9/m")))
        XCTAssertEqual(
            try ModelProvisioningMode.resolve(license: plain, environment: ["SLEEPANALYSIS_MODELS": "slim"]),
            .slim(baseURL: nil))
        XCTAssertEqual(
            try ModelProvisioningMode.resolve(license: plain, environment: ["SLEEPANALYSIS_MODEL_STORE": "file:///m"]),
            .slim(baseURL: URL(string: "file:///m")))
        XCTAssertEqual(
            try ModelProvisioningMode.resolve(license: withStore, environment: ["SLEEPANALYSIS_MODELS": "bundled"]),
            .bundled)
        XCTAssertThrowsError(
            try ModelProvisioningMode.resolve(license: plain, environment: ["SLEEPANALYSIS_MODELS": "x"]))
        XCTAssertThrowsError(
            try ModelProvisioningMode.resolve(license: plain, environment: ["SLEEPANALYSIS_MODEL_STORE": "ftp://x"]))
    }

    private func license(store: String?) throws -> License {
        try License(
            payload: LicensePayload(
                version: 1, issuer: "0", subject: "s", features: ["audioEvents"], issuedAt: 0, expiresAt: 1,
                modelStore: store))
    }
}

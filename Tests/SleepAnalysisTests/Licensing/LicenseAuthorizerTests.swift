import TestSupport
import XCTest

@testable import SleepAnalysis

final class LicenseAuthorizerTests: XCTestCase {
    private var directory: TemporaryDirectory!
    private var keys: LicenseKeyPair!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        directory = try TemporaryDirectory()
        keys = try LicenseIssuer.generateKeyPair()
    }

    override func tearDown() { directory.remove() }

    private var cache: LicenseTokenCache {
        LicenseTokenCache(directory: directory.url.appendingPathComponent("license"))
    }

    private func authorizer(trusting trusted: [LicenseKeyPair]? = nil) throws -> LicenseAuthorizer {
        LicenseAuthorizer(
            verifier: try LicenseVerifier(
                trustedIssuerKeys: (trusted ?? [keys]).map(\.publicKeyBase64), environment: [:], includeBuiltIn: false),
            cache: cache, logger: .silent)
    }

    private func key(expiresIn seconds: TimeInterval = 3_600) throws -> String {
        try key(expiresIn: seconds, modelStore: nil)
    }

    private func key(expiresIn seconds: TimeInterval = 3_600, modelStore: URL?) throws -> String {
        try LicenseIssuer.issue(
            features: SleepAnalysisFeatures(audioEvents: true), expires: now.addingTimeInterval(seconds),
            subject: "cache", issuedAt: now, modelStore: modelStore, privateKey: keys.privateKey)
    }

    func test_authorize_recordsKeyItself_inStateDirectory() throws {
        let apiKey = try key()
        let license = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        let entry = try XCTUnwrap(cache.entry(for: apiKey))
        XCTAssertEqual(entry.key, apiKey)
        XCTAssertEqual(entry.license, license)
        XCTAssertEqual(entry.recordedAt, now)
        XCTAssertEqual(entry.format, LicenseTokenCache.Entry.currentFormat)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        XCTAssertEqual(files.count, 1)
        XCTAssertFalse(files[0].contains(apiKey.prefix(20)), "the file name is a hash, not the key")
        let attributes = try FileManager.default.attributesOfItem(atPath: cache.directory.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func test_authorize_keepsMatchingEntry_andForceRefreshRecordsAfresh() throws {
        // Given a key with a model store, verified and recorded
        let apiKey = try key(modelStore: URL(string: "https://models.example.com/sleepanalysis/"))
        let first = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        // When it is authorised again later, the entry matches and is kept as recorded
        let again = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now + 60)
        XCTAssertEqual(again, first)
        XCTAssertEqual(cache.entry(for: apiKey)?.recordedAt, now)
        // When a refresh is forced, the entry is recorded afresh
        let refreshed = try authorizer().authorize(apiKey: apiKey, forceRefresh: true, now: now + 120)
        XCTAssertEqual(refreshed, first)
        XCTAssertEqual(cache.entry(for: apiKey)?.recordedAt, now + 120)
    }

    func test_authorize_neverReadsGrantFromCache_andReplacesEntryThatDiffers() throws {
        // Given an entry for the key that records more than the key grants
        let apiKey = try key()
        let real = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        let marked = try License(
            payload: LicensePayload(
                version: 1, issuer: real.issuerKeyId, subject: "from-cache", features: ["smartAlarm"],
                issuedAt: 0, expiresAt: Int64(now.timeIntervalSince1970) + 60, modelStore: nil))
        try cache.record(marked, for: apiKey, at: now)
        // When authorising again without a forced refresh
        let logger = RecordingLogger()
        let authorised = try LicenseAuthorizer(
            verifier: try LicenseVerifier(
                trustedIssuerKeys: [keys.publicKeyBase64], environment: [:], includeBuiltIn: false),
            cache: cache, logger: SDKLogger(threshold: .debug, destination: logger)
        ).authorize(apiKey: apiKey, forceRefresh: false, now: now)
        // Then the licence comes from the key, and the entry is replaced by what the key grants
        XCTAssertEqual(authorised, real)
        XCTAssertEqual(cache.entry(for: apiKey)?.license, real)
        XCTAssertTrue(logger.messages.contains { $0.level == .warning && $0.message.contains("Discarded") })
    }

    func test_authorize_replacesEntry_ofAnotherKeyOrFormat() throws {
        // Given the key's entry file holding another valid key of the same issuer, then an entry in the old format
        let apiKey = try key()
        let other = try key(expiresIn: 7_200)
        _ = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        let file = try XCTUnwrap(
            FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil).first)
        let otherLicense = try authorizer().authorize(apiKey: other, forceRefresh: false, now: now)
        let otherFile = try XCTUnwrap(
            FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil)
                .first { $0 != file })
        try FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: otherFile, to: file)
        // When the key is authorised, Then it gets its own licence, and its entry names it again
        let license = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        XCTAssertNotEqual(license, otherLicense)
        XCTAssertEqual(cache.entry(for: apiKey)?.key, apiKey)
        // And an old-format entry (a licence without its key) is ignored and replaced
        let oldFormat =
            "{\"keyHash\":\"\(file.deletingPathExtension().lastPathComponent)\",\"verifiedAt\":\"2026-01-01T00:00:00Z\"}"
        try Data(oldFormat.utf8).write(to: file)
        XCTAssertNil(cache.entry(for: apiKey))
        XCTAssertEqual(try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now), license)
        XCTAssertEqual(cache.entry(for: apiKey)?.key, apiKey)
    }

    func test_authorize_namesKey_withoutSurroundingWhiteSpace() throws {
        let apiKey = try key()
        _ = try authorizer().authorize(apiKey: "  \(apiKey)\n", forceRefresh: false, now: now)
        XCTAssertEqual(cache.entry(for: apiKey)?.key, apiKey)
    }

    func test_authorize_rechecksExpiry_onCachedLicense() throws {
        let apiKey = try key(expiresIn: 60)
        _ = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        XCTAssertThrowsError(try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now + 120)) {
            guard case SleepCycleSdkError.invalidApiKey(let why)? = $0 as? SleepCycleSdkError else {
                return XCTFail("expected invalidApiKey, got \($0)")
            }
            XCTAssertTrue(why.contains("expired"))
        }
        XCTAssertNil(cache.entry(for: apiKey), "an expired entry is dropped")
    }

    func test_authorize_ignoresCache_whenIssuerNoLongerTrusted() throws {
        let apiKey = try key()
        _ = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        let stranger = try LicenseIssuer.generateKeyPair()
        XCTAssertThrowsError(
            try authorizer(trusting: [stranger]).authorize(apiKey: apiKey, forceRefresh: false, now: now))
        XCTAssertNil(cache.entry(for: apiKey), "the entry of a key that no longer verifies is dropped")
    }

    func test_clear_removesCachedLicenses() throws {
        let apiKey = try key()
        _ = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        try cache.clear()
        XCTAssertNil(cache.entry(for: apiKey))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.directory.path))
        try cache.clear()  // clearing twice is fine
    }

    func test_cache_treatsCorruptFile_asAbsent() throws {
        let apiKey = try key()
        _ = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        for file in try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil) {
            try Data("{broken".utf8).write(to: file)
        }
        XCTAssertNil(cache.entry(for: apiKey))
        XCTAssertEqual(try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now).subject, "cache")
    }
}

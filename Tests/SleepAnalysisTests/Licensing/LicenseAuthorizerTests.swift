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
        try LicenseIssuer.issue(
            features: SleepAnalysisFeatures(audioEvents: true), expires: now.addingTimeInterval(seconds),
            subject: "cache", issuedAt: now, privateKey: keys.privateKey)
    }

    func test_authorize_cachesVerifiedLicense_inStateDirectory() throws {
        let apiKey = try key()
        let license = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        XCTAssertEqual(cache.cachedLicense(for: apiKey), license)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        XCTAssertEqual(files.count, 1)
        XCTAssertFalse(files[0].contains(apiKey.prefix(20)), "the file name is a hash, not the key")
    }

    func test_authorize_reusesCache_withoutForceRefresh() throws {
        // Given a cached licence that differs from what the key says (proves the cache is what is read)
        let apiKey = try key()
        let real = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        let marked = try License(
            payload: LicensePayload(
                version: 1, issuer: real.issuerKeyId, subject: "from-cache", features: ["smartAlarm"],
                issuedAt: 0, expiresAt: Int64(now.timeIntervalSince1970) + 60, modelStore: nil))
        try cache.store(marked, for: apiKey)
        // When authorising again without and with a forced refresh
        let reused = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        let refreshed = try authorizer().authorize(apiKey: apiKey, forceRefresh: true, now: now)
        // Then the first comes from the cache and the second from the key, which also replaces the cache
        XCTAssertEqual(reused.subject, "from-cache")
        XCTAssertEqual(refreshed, real)
        XCTAssertEqual(cache.cachedLicense(for: apiKey), real)
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
        XCTAssertNil(cache.cachedLicense(for: apiKey), "an expired entry is dropped")
    }

    func test_authorize_ignoresCache_whenIssuerNoLongerTrusted() throws {
        let apiKey = try key()
        _ = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        let stranger = try LicenseIssuer.generateKeyPair()
        XCTAssertThrowsError(
            try authorizer(trusting: [stranger]).authorize(apiKey: apiKey, forceRefresh: false, now: now))
    }

    func test_clear_removesCachedLicenses() throws {
        let apiKey = try key()
        _ = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        try cache.clear()
        XCTAssertNil(cache.cachedLicense(for: apiKey))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.directory.path))
        try cache.clear()  // clearing twice is fine
    }

    func test_cache_treatsCorruptFile_asAbsent() throws {
        let apiKey = try key()
        _ = try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now)
        for file in try FileManager.default.contentsOfDirectory(at: cache.directory, includingPropertiesForKeys: nil) {
            try Data("{broken".utf8).write(to: file)
        }
        XCTAssertNil(cache.cachedLicense(for: apiKey))
        XCTAssertEqual(try authorizer().authorize(apiKey: apiKey, forceRefresh: false, now: now).subject, "cache")
    }
}

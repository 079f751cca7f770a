import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// Issue 23: nothing in the licence cache on disk is trusted, and a key has exactly one text form. Each test writes
/// what an attacker with access to the state directory could write, then initializes an analyzer.
final class LicenseCacheTrustTests: XCTestCase {
    private var storage: TemporaryDirectory!
    private var analyzer: SleepAnalyzer!
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    override func setUp() async throws {
        try await super.setUp()
        storage = try TemporaryDirectory(prefix: "licence-trust")
        analyzer = SleepAnalyzer(name: "licence-trust")
    }

    override func tearDown() async throws {
        await analyzer.deinitialize()
        storage.remove()
        try await super.tearDown()
    }

    // MARK: - A cache entry grants nothing

    func test_handWrittenCacheEntry_forArbitraryString_isRejected() async throws {
        // Given cache files written by hand for a string that is no key, claiming the built-in issuer and every
        // feature: one naming the string itself, one naming a genuine key that grants every feature
        let apiKey = "let-me-in"
        let genuine = try TestLicenses.make(features: .all)
        let builtIn = try LicenseIssuerKeyID.of(try XCTUnwrap(Data(base64Encoded: BuiltInIssuers.publicKeys[0])))
        let forged = try license(features: .all, issuer: builtIn)
        for named in [apiKey, genuine.apiKey] {
            try writeEntry(
                [
                    "format": 2, "key": named, "keyHash": try Self.hash(apiKey), "verifiedAt": "2026-01-01T00:00:00Z",
                    "license": try Self.json(forged),
                ], to: try cacheFile(for: apiKey))
            // When initializing with that string, Then it is rejected and nothing is granted
            await assertRejected { try await self.initialize(apiKey, trusting: [genuine.trustedKey]) }
            XCTAssertFalse(analyzer.isFeatureEnabled(\.sleepStaging))
        }
        // And the forged entry is removed
        XCTAssertFalse(FileManager.default.fileExists(atPath: try cacheFile(for: apiKey).path))
    }

    func test_cacheEntryEditedToAddFeatures_grantsOnlyTheKeysFeatures() async throws {
        // Given a real key's cache entry, edited to grant every feature
        let licence = try TestLicenses.make(features: SleepAnalysisFeatures(sleepStaging: true))
        let real = try LicenseVerifier(trustedIssuerKeys: [licence.trustedKey], environment: [:]).verify(licence.apiKey)
        try await initialize(licence.apiKey, trusting: [licence.trustedKey])
        let file = try cacheFile(for: licence.apiKey)
        var entry = try readEntry(file)
        entry["license"] = try Self.json(
            try license(features: .all, issuer: real.issuerKeyId, subject: real.subject))
        try writeEntry(entry, to: file)
        // When initializing with the key again
        let granted = try await initialize(licence.apiKey, trusting: [licence.trustedKey])
        // Then only what the key's signature grants is enabled, and the entry again says just that
        XCTAssertEqual(granted, real.features)
        XCTAssertFalse(analyzer.isFeatureEnabled(\.smartAlarm))
        XCTAssertFalse(analyzer.isFeatureEnabled(\.multiChannelAnalysis))
        let rewritten = try XCTUnwrap(try readEntry(file)["license"])
        XCTAssertEqual(
            try Self.decoder.decode(License.self, from: JSONSerialization.data(withJSONObject: rewritten)), real)
    }

    func test_tamperedKey_isRejected_evenWithValidCacheEntryForTheOriginal() async throws {
        // Given a real key, verified and cached
        let licence = try TestLicenses.make(features: SleepAnalysisFeatures(sleepStaging: true))
        try await initialize(licence.apiKey, trusting: [licence.trustedKey])
        let original = try readEntry(try cacheFile(for: licence.apiKey))
        // And two altered keys: one whose payload adds a feature under the old signature, one differing only in
        // the unused bits of the signature's last character
        let parts = licence.apiKey.split(separator: ".")
        let payload = String(decoding: try Self.lenientDecode(parts[1]), as: UTF8.self)
            .replacingOccurrences(of: "\"sleepStaging\"", with: "\"sleepStaging\",\"smartAlarm\"")
        let morePayload = "sa1.\(Base64URL.encode(Data(payload.utf8))).\(parts[2])"
        let otherText = try XCTUnwrap(Self.settingPaddingBit(of: licence.apiKey, part: 2))
        for tampered in [morePayload, otherText] {
            // With the original's entry copied to the altered key's file, naming the altered key
            var copy = original
            for (name, value) in original {
                if value as? String == licence.apiKey { copy[name] = tampered }
                if value as? String == (try Self.hash(licence.apiKey)) { copy[name] = try Self.hash(tampered) }
            }
            try writeEntry(copy, to: try cacheFile(for: tampered))
            // When initializing with the altered key, Then it is rejected
            await assertRejected { try await self.initialize(tampered, trusting: [licence.trustedKey]) }
            XCTAssertFalse(analyzer.isFeatureEnabled(\.sleepStaging))
        }
        // And the real key still grants what it says
        let granted = try await initialize(licence.apiKey, trusting: [licence.trustedKey])
        XCTAssertEqual(granted, SleepAnalysisFeatures(sleepStaging: true))
    }

    // MARK: - One text form per key

    func test_keyDifferingOnlyInPaddingBits_isRejectedAsNonCanonical() async throws {
        // Given a valid key and the same key with an unused low bit of a last character set (a lenient decoder
        // reads the same bytes from both), for the signature and for a payload whose length leaves unused bits
        let keys = try LicenseIssuer.generateKeyPair()
        let apiKey = try XCTUnwrap(
            try ["p", "pp", "ppp"].map {
                try LicenseIssuer.issue(
                    features: .all, expires: Date().addingTimeInterval(3_600), subject: $0, privateKey: keys.privateKey)
            }.first { $0.split(separator: ".")[1].count % 4 != 0 })
        let verifier = try LicenseVerifier(trustedIssuerKeys: [keys.publicKeyBase64], environment: [:])
        XCTAssertEqual(try verifier.verify(apiKey).features, .all)
        for (part, name) in [(1, "payload"), (2, "signature")] {
            let variant = try XCTUnwrap(Self.settingPaddingBit(of: apiKey, part: part))
            XCTAssertNotEqual(variant, apiKey)
            XCTAssertEqual(
                try Self.lenientDecode(variant.split(separator: ".")[part]),
                try Self.lenientDecode(apiKey.split(separator: ".")[part]))
            // When it is verified or used to initialize, Then it is rejected as not canonical
            do {
                _ = try verifier.verify(variant)
                XCTFail("the \(name) variant was accepted")
            } catch SleepCycleSdkError.invalidApiKey(let why) {
                XCTAssertTrue(why.contains("the \(name) is not canonical base64url"), why)
            }
            await assertRejected(containing: "is not canonical base64url") {
                try await self.initialize(variant, trusting: [keys.publicKeyBase64])
            }
        }
    }

    // MARK: - Bounded, private

    func test_cache_keepsAtMostItsCapacity_newestFirst_ownerOnly() throws {
        // Given more keys than the cache holds, verified one after another
        let keys = try LicenseIssuer.generateKeyPair()
        let authorizer = LicenseAuthorizer(
            verifier: try LicenseVerifier(
                trustedIssuerKeys: [keys.publicKeyBase64], environment: [:], includeBuiltIn: false),
            cache: LicenseTokenCache(directory: cacheDirectory), logger: .silent)
        let capacity = LicenseTokenCache.defaultCapacity
        var apiKeys: [String] = []
        for index in 0..<(capacity + 4) {
            let issued = now.addingTimeInterval(TimeInterval(index))
            let apiKey = try LicenseIssuer.issue(
                features: .none, expires: issued.addingTimeInterval(3_600), subject: "key \(index)", issuedAt: issued,
                privateKey: keys.privateKey)
            _ = try authorizer.authorize(apiKey: apiKey, forceRefresh: false, now: issued)
            apiKeys.append(apiKey)
        }
        // Then the cache holds only the newest `capacity` entries, each readable by its owner only
        let files = try FileManager.default.contentsOfDirectory(atPath: cacheDirectory.path)
        XCTAssertEqual(files.count, capacity, "\(files)")
        for apiKey in apiKeys.suffix(capacity) {
            XCTAssertTrue(FileManager.default.fileExists(atPath: try cacheFile(for: apiKey).path))
        }
        for file in files {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: cacheDirectory.appendingPathComponent(file).path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, file)
        }
    }

    // MARK: - Helpers

    private var cacheDirectory: URL { storage.url.appendingPathComponent("state/license", isDirectory: true) }

    private func cacheFile(for apiKey: String) throws -> URL {
        cacheDirectory.appendingPathComponent("\(try Self.hash(apiKey)).json")
    }

    private static func hash(_ apiKey: String) throws -> String { try SHA256Hasher.hex(of: Data(apiKey.utf8)) }

    @discardableResult
    private func initialize(_ apiKey: String, trusting trustedKeys: [String]) async throws -> SleepAnalysisFeatures {
        await analyzer.deinitialize()
        return try await analyzer.initialize(
            logLevel: .debug, logger: RecordingLogger(), apiKey: apiKey, storageDirectory: storage.url,
            trustedIssuerKeys: trustedKeys)
    }

    /// Fails the test unless `body` throws `invalidApiKey` (whose message contains `expected`, if given).
    private func assertRejected<T>(
        containing expected: String? = nil, file: StaticString = #filePath, line: UInt = #line,
        _ body: () async throws -> T
    ) async {
        do {
            _ = try await body()
            XCTFail("expected invalidApiKey", file: file, line: line)
        } catch SleepCycleSdkError.invalidApiKey(let why) {
            if let expected { XCTAssertTrue(why.contains(expected), why, file: file, line: line) }
        } catch {
            XCTFail("expected invalidApiKey, got \(error)", file: file, line: line)
        }
    }

    /// A licence as a forger would write it: any features, any issuer id, valid for years.
    private func license(
        features: SleepAnalysisFeatures, issuer: String, subject: String = "forged"
    ) throws -> License {
        try License(
            payload: LicensePayload(
                version: 1, issuer: issuer, subject: subject, features: features.enabledNames,
                issuedAt: Int64(now.timeIntervalSince1970), expiresAt: Int64(now.timeIntervalSince1970) + 400_000_000,
                modelStore: nil))
    }

    private static func json(_ license: License) throws -> Any {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try JSONSerialization.jsonObject(with: encoder.encode(license))
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    private func readEntry(_ file: URL) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    }

    private func writeEntry(_ entry: [String: Any], to file: URL) throws {
        try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]).write(to: file)
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// `key` with the lowest unused bit of the last character of its part `index` set, or nil if that part has no
    /// unused bits (its length is a multiple of 4).
    private static func settingPaddingBit(of key: String, part index: Int) -> String? {
        var parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts[index].count % 4 >= 2, let last = parts[index].popLast(), let value = alphabet.firstIndex(of: last)
        else { return nil }
        parts[index].append(alphabet[value | 1])
        return parts.joined(separator: ".")
    }

    /// Decodes base64url as Foundation does, ignoring the unused bits of the last character.
    private static func lenientDecode(_ text: Substring) throws -> Data {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        return try XCTUnwrap(Data(base64Encoded: base64))
    }
}

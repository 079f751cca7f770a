import TestSupport
import XCTest

@testable import SleepAnalysis

final class LicenseVerifierTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func issue(
        _ keys: LicenseKeyPair, features: SleepAnalysisFeatures = .all, expires: TimeInterval = 86_400
    ) throws -> String {
        try LicenseIssuer.issue(
            features: features, expires: now.addingTimeInterval(expires), subject: "tests", issuedAt: now,
            privateKey: keys.privateKey)
    }

    private func verifier(trusting keys: LicenseKeyPair...) throws -> LicenseVerifier {
        try LicenseVerifier(trustedIssuerKeys: keys.map(\.publicKeyBase64), environment: [:])
    }

    /// The message of the `invalidApiKey` error `body` throws (fails the test for any other outcome).
    private func rejection(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            _ = try body()
            XCTFail("expected invalidApiKey", file: file, line: line)
        } catch SleepCycleSdkError.invalidApiKey(let why) {
            return why
        } catch {
            XCTFail("expected invalidApiKey, got \(error)", file: file, line: line)
        }
        return ""
    }

    func test_verify_returnsLicense_forValidKey() throws {
        // Given a key for two features from a trusted issuer
        let keys = try LicenseIssuer.generateKeyPair()
        let key = try issue(keys, features: SleepAnalysisFeatures(sleepStaging: true, audioEvents: true))
        // When it is verified
        let license = try verifier(trusting: keys).verify(key, now: now)
        // Then it grants exactly those features, for that subject, until that time
        XCTAssertEqual(license.features, SleepAnalysisFeatures(sleepStaging: true, audioEvents: true))
        XCTAssertEqual(license.subject, "tests")
        XCTAssertEqual(license.expiresAt, now.addingTimeInterval(86_400))
        XCTAssertEqual(license.issuedAt, now)
        XCTAssertNil(license.modelStore)
        XCTAssertTrue(key.hasPrefix("sa1."))
        XCTAssertEqual(key.split(separator: ".").count, 3)
    }

    func test_verify_carriesModelStore_whenIssuedWithOne() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let store = URL(string: "http://127.0.0.1:8080/models")!
        let key = try LicenseIssuer.issue(
            features: .all, expires: now.addingTimeInterval(60), subject: "s", issuedAt: now, modelStore: store,
            privateKey: keys.privateKey)
        XCTAssertEqual(try verifier(trusting: keys).verify(key, now: now).modelStore, store)
    }

    func test_verify_rejectsExpiredKey_withExpiryMessage() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let key = try issue(keys, expires: -1)
        let why = rejection { try self.verifier(trusting: keys).verify(key, now: self.now) }
        XCTAssertTrue(why.contains("expired"), why)
    }

    func test_verify_rejectsUntrustedIssuer_withUntrustedMessage() throws {
        let issuer = try LicenseIssuer.generateKeyPair()
        let other = try LicenseIssuer.generateKeyPair()
        let key = try issue(issuer)
        let why = rejection { try self.verifier(trusting: other).verify(key, now: self.now) }
        XCTAssertTrue(why.contains("untrusted issuer"), why)
    }

    func test_verify_rejectsTamperedPayload_withSignatureMessage() throws {
        // Given a valid key whose payload is edited to grant more (re-encoded, signature kept)
        let keys = try LicenseIssuer.generateKeyPair()
        let key = try issue(keys, features: SleepAnalysisFeatures(sleepStaging: true))
        let parts = key.split(separator: ".")
        var json = String(decoding: try Base64URL.decode(parts[1]), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"sleepStaging\"", with: "\"sleepStaging\",\"smartAlarm\"")
        let tampered = "sa1.\(Base64URL.encode(Data(json.utf8))).\(parts[2])"
        // Then it is rejected as altered
        let why = rejection { try self.verifier(trusting: keys).verify(tampered, now: self.now) }
        XCTAssertTrue(why.contains("signature does not match"), why)
    }

    func test_verify_rejectsMalformedKeys_withMalformedMessage() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let good = try issue(keys)
        let parts = good.split(separator: ".").map(String.init)
        let malformed = [
            "", "hello", "sa1.", "sa1..", "sa2.\(parts[1]).\(parts[2])", "sa1.\(parts[1])",
            "sa1.\(parts[1]).\(parts[2]).extra", "sa1.!!!.\(parts[2])", "sa1.\(parts[1]).AAAA",
            "sa1.\(Base64URL.encode(Data("not json".utf8))).\(parts[2])",
            "sa1.\(Base64URL.encode(Data("{\"v\":2}".utf8))).\(parts[2])",
            String(repeating: "a", count: 20_000),
        ]
        for key in malformed {
            let why = rejection { try self.verifier(trusting: keys).verify(key, now: self.now) }
            XCTAssertTrue(why.contains("malformed"), "\(key.prefix(40)): \(why)")
        }
    }

    func test_verify_rejectsUnknownFeatureNames_withFeatureMessage() throws {
        // Given a correctly signed payload naming a feature this build does not know
        let keys = try LicenseIssuer.generateKeyPair()
        let payload = LicensePayload(
            version: 1, issuer: try LicenseIssuerKeyID.of(keys.publicKey), subject: "s",
            features: ["sleepStaging", "teleportation"], issuedAt: 0, expiresAt: 4_000_000_000, modelStore: nil)
        let bytes = try JSONEncoder().encode(payload)
        let key = LicenseKey.serialise(
            payloadBytes: bytes, signature: try Sodium.sign(bytes, secretKey: keys.privateKey))
        // Then the error names it
        let why = rejection { try self.verifier(trusting: keys).verify(key, now: self.now) }
        XCTAssertTrue(why.contains("unknown features: teleportation"), why)
    }

    func test_rejections_areDistinct_forEachKindOfBadKey() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let stranger = try LicenseIssuer.generateKeyPair()
        let valid = try issue(keys)
        var flipped = Array(valid.utf8)
        let signatureStart = valid.lastIndex(of: ".")!.utf16Offset(in: valid) + 5
        flipped[signatureStart] = flipped[signatureStart] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let messages = [
            rejection { try self.verifier(trusting: keys).verify("garbage", now: self.now) },
            rejection {
                try self.verifier(trusting: keys).verify(String(decoding: flipped, as: UTF8.self), now: self.now)
            },
            rejection { try self.verifier(trusting: stranger).verify(valid, now: self.now) },
            rejection { try self.verifier(trusting: keys).verify(try self.issue(keys, expires: -10), now: self.now) },
        ]
        XCTAssertEqual(Set(messages).count, 4, "\(messages)")
    }

    func test_verify_neverCrashes_onRandomOrBitFlippedKeys() throws {
        // Given a valid key and a seeded generator
        let keys = try LicenseIssuer.generateKeyPair()
        let verifier = try verifier(trusting: keys)
        let valid = Array(try issue(keys).utf8)
        var generator = SplitMix64(seed: 0x5EED)
        // When 2 000 random and bit-flipped variants are verified
        var accepted = 0
        for round in 0..<2_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = valid
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] ^= UInt8(1 << (generator.next() % 8))
            } else {
                bytes = (0..<Int(generator.next() % 300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                if round % 4 == 1 { bytes = Array("sa1.".utf8) + bytes }
            }
            do {
                _ = try verifier.verify(String(decoding: bytes, as: UTF8.self), now: now)
                accepted += 1
            } catch let error as SleepCycleSdkError {
                guard case .invalidApiKey = error else { return XCTFail("unexpected error \(error)") }
            }
        }
        // Then each is rejected with invalidApiKey, even flips of a last character's unused low bits (only canonical
        // base64url decodes)
        XCTAssertEqual(accepted, 0)
    }

    func test_init_readsTrustedKeys_fromEnvironment() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let other = try LicenseIssuer.generateKeyPair()
        let verifier = try LicenseVerifier(
            environment: [LicenseVerifier.trustedKeysVariable: "\(other.publicKeyBase64), \(keys.publicKeyBase64)"])
        XCTAssertEqual(try verifier.verify(try issue(keys), now: now).subject, "tests")
    }

    func test_init_throwsInvalidConfiguration_forMalformedTrustedKey() {
        XCTAssertThrowsError(try LicenseVerifier(trustedIssuerKeys: ["bm90IGEga2V5"], environment: [:])) { error in
            guard case SleepCycleSdkError.invalidConfiguration? = error as? SleepCycleSdkError else {
                return XCTFail("expected invalidConfiguration, got \(error)")
            }
        }
        XCTAssertThrowsError(
            try LicenseVerifier(environment: [LicenseVerifier.trustedKeysVariable: "zzz"]))
    }

    func test_builtInIssuer_isTrusted_byDefault_andNotWithoutBuiltIns() throws {
        let builtIn = try LicenseVerifier(environment: [:])
        let none = try LicenseVerifier(environment: [:], includeBuiltIn: false)
        let builtInId = try LicenseIssuerKeyID.of(try XCTUnwrap(Data(base64Encoded: BuiltInIssuers.publicKeys[0])))
        XCTAssertTrue(builtIn.trustedKeyIds.contains(builtInId))
        XCTAssertTrue(none.trustedKeyIds.isEmpty)
    }

    func test_issuer_acceptsSeed_andFullPrivateKey_alike() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let fromSeed = try LicenseIssuer.keyPair(privateKeyBase64: keys.privateKey.prefix(32).base64EncodedString())
        XCTAssertEqual(fromSeed, keys)
        XCTAssertEqual(try LicenseIssuer.keyPair(privateKeyBase64: keys.privateKeyBase64 + "\n"), keys)
        XCTAssertThrowsError(try LicenseIssuer.keyPair(privateKeyBase64: "AAAA"))
    }
}

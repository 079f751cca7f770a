import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// `License.developmentKey()`: a first result with no key to obtain, refused wherever a production key is due, and
/// a missing or untrusted key a thrown error rather than a crash.
final class DevelopmentLicenseTests: SDKTestCase {
    /// The `invalidApiKey` message of `error`, or nil for any other error.
    private func invalidApiKeyMessage(_ error: any Error) -> String? {
        guard case SleepCycleSdkError.invalidApiKey(let message) = error else { return nil }
        return message
    }

    func test_a_development_key_gives_a_result_on_the_demo_night_through_the_sdk() async throws {
        let logger = RecordingLogger()
        let features = try await SleepCycleSdk.initialize(
            logLevel: .info, logger: logger, apiKey: License.developmentKey(subject: "demo night"),
            storageDirectory: storage.url)
        XCTAssertEqual(features, .all)
        XCTAssertTrue(
            logger.messages.contains { $0.level == .notice && $0.message.contains("development licence") },
            "\(logger.messages)")

        let night = SleepCycleSdk.createFileDataSource(
            audio: FixturePaths.fixtures.appendingPathComponent("night_short.ogg"), accelerometer: nil,
            startTime: Date(timeIntervalSince1970: 1_796_166_000))
        try await SleepCycleSdk.startAnalysis(config: SleepAnalysisConfig(useAudio: true), using: night)
        await night.waitUntilFinished()
        let result = try await SleepCycleSdk.stopAnalysis()

        XCTAssertEqual(result.endTime.timeIntervalSince(result.startTime), 1800, accuracy: 5)
        XCTAssertFalse(result.sleepStageIntervals.isEmpty)
        XCTAssertNotNil(result.statistics)
    }

    func test_the_development_licence_is_marked_short_lived_and_grants_every_feature() throws {
        let verifier = try LicenseVerifier(environment: [:]).acceptingDevelopment()
        let license = try verifier.verify(try License.developmentKey(subject: "laptop", validFor: 3600))
        XCTAssertTrue(license.isDevelopment)
        XCTAssertEqual(license.features, .all)
        XCTAssertEqual(license.subject, "laptop")
        XCTAssertEqual(license.expiresAt.timeIntervalSince(license.issuedAt), 3600, accuracy: 1)
        XCTAssertNil(license.modelStore)
        // It expires: an hour and a minute later it is refused.
        XCTAssertThrowsError(
            try verifier.verify(try License.developmentKey(validFor: 3600), now: Date().addingTimeInterval(3660))
        ) { XCTAssertTrue(self.invalidApiKeyMessage($0)?.contains("expired") ?? false, "\($0)") }
    }

    func test_a_development_licence_longer_than_a_day_or_of_no_length_cannot_be_made() {
        for validFor in [0, -1, License.maximumDevelopmentLifetime + 1] {
            XCTAssertThrowsError(try License.developmentKey(validFor: validFor)) {
                guard case SleepCycleSdkError.invalidConfiguration = $0 else { return XCTFail("\($0)") }
            }
        }
        XCTAssertNoThrow(try License.developmentKey(validFor: License.maximumDevelopmentLifetime))
    }

    func test_the_licence_verifier_refuses_a_development_key() throws {
        // LicenseVerifier checks keys for servers and tools: a development key is not a licence there.
        let key = try License.developmentKey()
        XCTAssertThrowsError(try LicenseVerifier().verify(key)) {
            XCTAssertTrue(
                self.invalidApiKeyMessage($0)?.contains("accepted only by initialize") ?? false, "\($0)")
        }
    }

    func test_a_development_key_from_another_process_is_refused_even_from_a_trusted_issuer() async throws {
        // Another process's development issuer, even if its public key is trusted.
        let elsewhere = try LicenseIssuer.generateKeyPair()
        let key = try LicenseIssuer.issue(
            features: .all, expires: Date().addingTimeInterval(3600), subject: "another process",
            privateKey: elsewhere.privateKey, development: true)
        await assertThrowsSdkError({
            try await SleepCycleSdk.initialize(
                logLevel: .noLog, apiKey: key, storageDirectory: self.storage.url,
                trustedIssuerKeys: [elsewhere.publicKeyBase64])
        }) { error in self.invalidApiKeyMessage(error)?.contains("another process") ?? false }
    }

    func test_the_development_issuer_signs_nothing_but_day_long_development_licences() throws {
        let issuer = try DevelopmentIssuer.keyPair.get()
        let verifier = try LicenseVerifier(environment: [:]).acceptingDevelopment()
        let production = try LicenseIssuer.issue(
            features: .all, expires: Date().addingTimeInterval(3600), subject: "posing as production",
            privateKey: issuer.privateKey)
        XCTAssertThrowsError(try verifier.verify(production)) {
            XCTAssertTrue(self.invalidApiKeyMessage($0)?.contains("development issuer") ?? false, "\($0)")
        }
        let week = try LicenseIssuer.issue(
            features: .all, expires: Date().addingTimeInterval(7 * 86_400), subject: "a week",
            privateKey: issuer.privateKey, development: true)
        XCTAssertThrowsError(try verifier.verify(week)) {
            XCTAssertTrue(self.invalidApiKeyMessage($0)?.contains("more than a day") ?? false, "\($0)")
        }
    }

    func test_an_untrusted_or_missing_key_is_a_thrown_invalidApiKey_and_leaves_the_sdk_uninitialized() async throws {
        let stranger = try TestLicenses.make()
        for key in [stranger.apiKey, "", "not a key"] {
            await assertThrowsSdkError({
                try await SleepCycleSdk.initialize(logLevel: .noLog, apiKey: key, storageDirectory: self.storage.url)
            }) { error in self.invalidApiKeyMessage(error) != nil }
            let state = await SleepCycleSdk.currentState
            XCTAssertEqual(state, .uninitialized)
        }
    }

    func test_a_development_key_is_not_recorded_in_the_licence_cache_and_old_licences_decode_as_production()
        async throws
    {
        try await SleepCycleSdk.initialize(
            logLevel: .noLog, apiKey: License.developmentKey(), storageDirectory: storage.url)
        let cache = storage.url.appendingPathComponent("state/license")
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        XCTAssertTrue(entries.isEmpty, "\(entries)")

        // A licence recorded before `isDevelopment` existed.
        let production = try TestLicenses.make()
        let license = try LicenseVerifier(trustedIssuerKeys: [production.trustedKey], environment: [:])
            .verify(production.apiKey)
        var fields = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: try JSONEncoder().encode(license)) as? [String: Any])
        XCTAssertEqual(fields.removeValue(forKey: "isDevelopment") as? Bool, false)
        let old = try JSONDecoder().decode(License.self, from: try JSONSerialization.data(withJSONObject: fields))
        XCTAssertEqual(old, license)
    }
}

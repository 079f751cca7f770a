import TestSupport
import XCTest

@testable import SleepAnalysis

/// The `sleepanalysis license` round trip, through the built executable.
final class LicenseCommandTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory.remove() }

    func test_licenseCommand_roundTrip_keygenIssueVerify() throws {
        // Given a key pair made by keygen
        let keyDirectory = directory.url.appendingPathComponent("keys").path
        let keygen = try runCommandLineTool(["license", "keygen", "--out", keyDirectory])
        XCTAssertEqual(keygen.status, 0, keygen.standardError)
        let publicKey = try String(contentsOfFile: keyDirectory + "/public.key", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(Data(base64Encoded: publicKey)?.count, 32)
        XCTAssertEqual(keygen.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), publicKey)
        let mode = try FileManager.default.attributesOfItem(atPath: keyDirectory + "/private.key")[.posixPermissions]
        XCTAssertEqual((mode as? NSNumber)?.intValue, 0o600)
        // When a key is issued for two features
        let issue = try runCommandLineTool([
            "license", "issue", "--private-key", keyDirectory + "/private.key", "--features",
            "sleepStaging,snoringDetection", "--expires", "2099-12-31", "--subject", "round-trip",
        ])
        XCTAssertEqual(issue.status, 0, issue.standardError)
        let apiKey = issue.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        // Then the library verifies it with that public key trusted, and only then
        let license = try LicenseVerifier(trustedIssuerKeys: [publicKey], environment: [:]).verify(apiKey)
        XCTAssertEqual(license.features, SleepAnalysisFeatures(sleepStaging: true, snoringDetection: true))
        XCTAssertEqual(license.subject, "round-trip")
        XCTAssertEqual(license.expiresAt, try Date("2100-01-01T00:00:00Z", strategy: .iso8601))
        XCTAssertThrowsError(try LicenseVerifier(environment: [:]).verify(apiKey))
        // And `license verify` agrees, trusting the key through the environment variable
        var environment = ProcessInfo.processInfo.environment
        environment[LicenseVerifier.trustedKeysVariable] = publicKey
        let verify = try runCommandLineTool(
            ["license", "verify", apiKey, "--format", "json"], environment: environment)
        XCTAssertEqual(verify.status, 0, verify.standardError)
        XCTAssertTrue(verify.standardOutput.contains("\"subject\":\"round-trip\""), verify.standardOutput)
        let untrusted = try runCommandLineTool(["license", "verify", apiKey], environment: [:])
        XCTAssertNotEqual(untrusted.status, 0)
        XCTAssertTrue(untrusted.standardError.contains("untrusted issuer"), untrusted.standardError)
    }

    func test_licenseCommand_issue_rejectsUnknownFeature_andBadDate() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let keyFile = directory.url.appendingPathComponent("private.key")
        try Data(keys.privateKeyBase64.utf8).write(to: keyFile)
        let unknown = try runCommandLineTool([
            "license", "issue", "--private-key", keyFile.path, "--features", "sleepStaging,flying", "--expires",
            "2099-01-01",
        ])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.standardError.contains("flying"), unknown.standardError)
        let badDate = try runCommandLineTool([
            "license", "issue", "--private-key", keyFile.path, "--features", "all", "--expires", "31/12/2099",
        ])
        XCTAssertEqual(badDate.status, 64)
        XCTAssertTrue(badDate.standardOutput.isEmpty)
    }

    func test_licenseCommand_issue_withModelStore_isCarriedIntoLicense() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let keyFile = directory.url.appendingPathComponent("private.key")
        try Data(keys.privateKeyBase64.utf8).write(to: keyFile)
        let issue = try runCommandLineTool([
            "license", "issue", "--private-key", keyFile.path, "--features", "all", "--expires", "2099-01-01",
            "--model-store", "file:///srv/models",
        ])
        XCTAssertEqual(issue.status, 0, issue.standardError)
        let license = try LicenseVerifier(trustedIssuerKeys: [keys.publicKeyBase64], environment: [:])
            .verify(issue.standardOutput)
        XCTAssertEqual(license.features, .all)
        XCTAssertEqual(license.modelStore, URL(string: "file:///srv/models"))
    }

    func test_licenseCommand_keygen_refusesToOverwrite_withoutForce() throws {
        let keyDirectory = directory.url.path
        XCTAssertEqual(try runCommandLineTool(["license", "keygen", "--out", keyDirectory]).status, 0)
        let first = try String(contentsOfFile: keyDirectory + "/public.key", encoding: .utf8)
        XCTAssertNotEqual(try runCommandLineTool(["license", "keygen", "--out", keyDirectory]).status, 0)
        XCTAssertEqual(try String(contentsOfFile: keyDirectory + "/public.key", encoding: .utf8), first)
        XCTAssertEqual(try runCommandLineTool(["license", "keygen", "--out", keyDirectory, "--force"]).status, 0)
        XCTAssertNotEqual(try String(contentsOfFile: keyDirectory + "/public.key", encoding: .utf8), first)
    }
}

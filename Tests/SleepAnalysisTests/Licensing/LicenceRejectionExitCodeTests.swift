import Foundation
import SleepAnalysis
import TestSupport
import XCTest

/// A licence key the user gives is input: its rejection (malformed or tampered, expired, or lacking a feature
/// the command needs) exits 65 with the reason, like other bad input.
final class LicenceRejectionExitCodeTests: XCTestCase {
    /// The bundled accelerometer night.
    private var accelerometer: String {
        FixturePaths.fixtures.appendingPathComponent("night_short_accelerometer.csv").path
    }

    /// `analyze` of the accelerometer night under `apiKey`, trusting `trustedKey` as an issuer.
    private func analyze(
        apiKey: String, trustedKey: String?, _ extra: [String] = []
    ) throws -> ToolOutput {
        let storage = try makeTemporaryDirectory(self)
        var environment = ProcessInfo.processInfo.environment
        environment[LicenseVerifier.trustedKeysVariable] = trustedKey
        return try runCommandLineTool(
            [
                "analyze", "-", "--accelerometer", accelerometer, "--storage", storage.path, "--api-key", apiKey,
                "--quiet",
            ]
                + extra, environment: environment, timeout: 60)
    }

    func test_an_invalid_key_exits_65() throws {
        let output = try analyze(apiKey: "sa1.not-a-key.at-all", trustedKey: nil)
        XCTAssertEqual(output.status, 65, output.standardError)
        XCTAssertTrue(output.standardError.contains("rejected"), output.standardError)
    }

    func test_an_expired_key_exits_65() throws {
        let licence = try TestLicenses.make(validFor: -3_600)
        let output = try analyze(apiKey: licence.apiKey, trustedKey: licence.trustedKey)
        XCTAssertEqual(output.status, 65, output.standardError)
        XCTAssertTrue(output.standardError.contains("expired"), output.standardError)
    }

    func test_a_key_without_the_feature_a_command_needs_exits_65() throws {
        let licence = try TestLicenses.make(features: SleepAnalysisFeatures(sleepStaging: true))
        let output = try analyze(
            apiKey: licence.apiKey, trustedKey: licence.trustedKey,
            ["--start", "2026-12-01T23:00:00Z", "--wakeup-window", "2026-12-01T23:10:00Z/23:20"])
        XCTAssertEqual(output.status, 65, output.standardError)
        XCTAssertTrue(output.standardError.contains("smartAlarm"), output.standardError)
    }
}

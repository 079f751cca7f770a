import Foundation
import TestSupport
import XCTest

@testable import SleepAnalysis

/// The command line's dates go through the package's ISO 8601 parser: `analyze --start`, `history --from/--to`,
/// `license issue --expires`; and `analyze --pace` is range-checked instead of trapping.
final class ISO8601CommandLineTests: XCTestCase {
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory.remove() }

    /// A two-second accelerometer recording starting at 2026-12-01T22:00Z.
    private func accelerometerFile() throws -> URL {
        let url = directory.url.appendingPathComponent("acc.csv")
        let rows = (0..<20).map { "\(Double($0) * 0.1),0,0,1" }
        try Data((["timestamp,x,y,z"] + rows).joined(separator: "\n").utf8).write(to: url)
        return url
    }

    private func analyze(_ extra: [String]) throws -> ToolOutput {
        try runCommandLineTool(
            [
                "analyze", "-", "--accelerometer", try accelerometerFile().path, "--quiet", "--format", "json",
                "--storage", directory.url.appendingPathComponent("storage").path,
            ] + extra)
    }

    func test_analyze_start_takes_offsets_and_fractions_and_rejects_years_before_1970() throws {
        let fractional = try analyze(["--start", "2026-12-01T23:00:00.250+01:00"])
        XCTAssertEqual(fractional.status, 0, fractional.standardError)
        XCTAssertTrue(
            fractional.standardOutput.contains("\"startTime\" : \"2026-12-01T22:00:00.250Z\""),
            fractional.standardOutput)
        for text in ["1969-12-31T23:00:00Z", "2026-12-01T23:00:00", "2026-12-01"] {
            let rejected = try analyze(["--start", text])
            XCTAssertEqual(rejected.status, 64, text)
            XCTAssertTrue(rejected.standardError.contains("--start must be an ISO 8601"), rejected.standardError)
        }
    }

    func test_analyze_pace_outside_the_bounds_is_a_configuration_error_not_a_trap() throws {
        for pace in ["1e-12", "1e9"] {
            let output = try analyze(["--start", "2026-12-01T22:00:00Z", "--pace", pace])
            XCTAssertEqual(output.status, 64, output.standardError)
            XCTAssertTrue(output.standardError.contains("from 0.001 to 1000000"), output.standardError)
        }
        let fastest = try analyze(["--start", "2026-12-01T22:00:00Z", "--pace", "1000000"])
        XCTAssertEqual(fastest.status, 0, fastest.standardError)
    }

    func test_history_range_takes_fractions_and_rejects_years_outside_1970_to_9999() throws {
        let store = directory.url.appendingPathComponent("store")
        _ = try SessionStore(directory: store)
        let fractional = try runCommandLineTool([
            "history", "--store", store.path, "--from", "2026-11-02T12:00:00.5+09:00", "--to",
            "2026-11-03T23:00:00,25Z",
        ])
        XCTAssertEqual(fractional.status, 0, fractional.standardError)
        for text in ["1969-12-31", "1969-12-31T23:00:00Z", "10000-01-01"] {
            let rejected = try runCommandLineTool(["history", "--store", store.path, "--from", text])
            XCTAssertEqual(rejected.status, 64, text)
            XCTAssertTrue(rejected.standardError.contains("ISO 8601"), rejected.standardError)
        }
    }

    func test_license_expiry_is_a_day_or_a_time_in_range() throws {
        let keys = try LicenseIssuer.generateKeyPair()
        let keyFile = directory.url.appendingPathComponent("private.key")
        try Data(keys.privateKeyBase64.utf8).write(to: keyFile)
        func issue(expiring text: String) throws -> ToolOutput {
            try runCommandLineTool([
                "license", "issue", "--private-key", keyFile.path, "--features", "all", "--expires", text,
            ])
        }
        let verifier = try LicenseVerifier(trustedIssuerKeys: [keys.publicKeyBase64], environment: [:])
        let expectations: [(String, Date)] = [
            ("2099-12-31", try Date("2100-01-01T00:00:00Z", strategy: .iso8601)),
            ("2099-12-31 12:00:00+0200", try Date("2099-12-31T10:00:00Z", strategy: .iso8601)),
        ]
        for (text, expected) in expectations {
            let issued = try issue(expiring: text)
            XCTAssertEqual(issued.status, 0, issued.standardError)
            XCTAssertEqual(try verifier.verify(issued.standardOutput).expiresAt, expected, text)
        }
        let early = try issue(expiring: "1969-12-31")
        XCTAssertEqual(early.status, 64, early.standardError)
        XCTAssertTrue(early.standardError.contains("--expires"), early.standardError)
    }
}

import Foundation
import SleepAnalysis

/// Licence keys for tests, signed by a key pair made for the test run (its public key is passed to
/// `initialize(..., trustedIssuerKeys:)`).
public enum TestLicenses {
    /// A key granting `features`, valid for `validFor` seconds, and the issuer's public key to trust.
    public static func make(
        features: SleepAnalysisFeatures = .all, validFor: TimeInterval = 86_400, subject: String = "tests"
    ) throws -> (apiKey: String, trustedKey: String) {
        let pair = try LicenseIssuer.generateKeyPair()
        let key = try LicenseIssuer.issue(
            features: features, expires: Date().addingTimeInterval(validFor), subject: subject,
            privateKey: pair.privateKey)
        return (key, pair.publicKeyBase64)
    }
}

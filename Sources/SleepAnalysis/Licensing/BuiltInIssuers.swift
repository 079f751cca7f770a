import Foundation

/// The issuer public keys built into the library. Keys signed by the matching private keys are trusted without
/// configuration; more issuers can be added through `SLEEPANALYSIS_TRUSTED_KEYS` or
/// `initialize(..., trustedIssuerKeys:)`.
///
/// The private key of the vendor issuer is kept by the operators, never in this repository.
enum BuiltInIssuers {
    /// Base64 Ed25519 public keys.
    static let publicKeys: [String] = [
        // SleepAnalysis vendor issuer, generated 2026-11-30.
        "9wnv1+nYduqDSNdtwLtrEIgsb9CARV88emQgW31IQbU="
    ]
}

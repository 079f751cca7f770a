import Foundation

/// An Ed25519 key pair for issuing licences: the public key goes to the verifiers, the private key stays with
/// the issuer.
public struct LicenseKeyPair: Sendable, Hashable {
    /// The 32-byte public key.
    public let publicKey: Data
    /// The 64-byte private key (libsodium layout: seed, then public key).
    public let privateKey: Data

    /// The public key in base64, as `SLEEPANALYSIS_TRUSTED_KEYS` and `trustedIssuerKeys:` take it.
    public var publicKeyBase64: String { publicKey.base64EncodedString() }
    /// The private key in base64, as `sleepanalysis license issue --private-key FILE` reads it.
    public var privateKeyBase64: String { privateKey.base64EncodedString() }
}

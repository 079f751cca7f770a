import Foundation

/// A short, stable name for an issuer public key: the first 8 bytes of its SHA-256, in hex. A licence names its
/// issuer this way, so a key from an unknown issuer is told apart from a tampered one.
enum LicenseIssuerKeyID {
    /// The key id of `publicKey`.
    ///
    /// - Parameter publicKey: A 32-byte Ed25519 public key.
    /// - Returns: 16 hex digits.
    static func of(_ publicKey: Data) throws -> String {
        String(try SHA256Hasher.hex(of: publicKey).prefix(16))
    }
}

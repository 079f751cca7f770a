import Foundation

/// The text form of a licence key, `sa1.<base64url payload JSON>.<base64url Ed25519 signature>`, split and decoded
/// but not yet verified. The signature covers the payload's bytes exactly as they appear in the key. Both parts must
/// be canonical base64url (`Base64URL`), so no other text decodes to the same key.
package struct LicenseKey: Sendable, Hashable {
    /// The key format's prefix.
    static let prefix = "sa1"
    /// Keys longer than this are rejected before decoding.
    static let maximumLength = 16_384

    /// The payload bytes the signature covers.
    let payloadBytes: Data
    /// The decoded payload.
    package let payload: LicensePayload
    /// The 64-byte Ed25519 signature.
    let signature: Data

    /// Splits and decodes a key.
    ///
    /// - Parameter text: The key (surrounding white space is ignored).
    /// - Throws: `SleepCycleSdkError.invalidApiKey` saying what is malformed.
    package init(parsing text: String) throws {
        let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw Self.malformed("the key is empty") }
        guard key.utf8.count <= Self.maximumLength else {
            throw Self.malformed("the key is longer than \(Self.maximumLength) characters")
        }
        let parts = key.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.prefix else {
            throw Self.malformed("expected three dot-separated parts, sa1.<payload>.<signature>")
        }
        let payloadBytes = try Self.decode(parts[1], naming: "payload")
        guard !payloadBytes.isEmpty else { throw Self.malformed("the payload is empty") }
        let signature = try Self.decode(parts[2], naming: "signature")
        guard signature.count == Sodium.signatureBytes else {
            throw Self.malformed("the signature has \(signature.count) bytes, expected \(Sodium.signatureBytes)")
        }
        let payload: LicensePayload
        do {
            payload = try JSONDecoder().decode(LicensePayload.self, from: payloadBytes)
        } catch {
            throw Self.malformed("the payload is not a licence (JSON with v, kid, sub, features, iat, exp)")
        }
        guard payload.version == LicensePayload.currentVersion else {
            throw Self.malformed("payload version \(payload.version) is not supported (this build reads 1)")
        }
        self.payloadBytes = payloadBytes
        self.payload = payload
        self.signature = signature
    }

    /// Joins a signed payload into key text.
    ///
    /// - Parameters:
    ///   - payloadBytes: The payload JSON bytes.
    ///   - signature: Their Ed25519 signature.
    /// - Returns: `sa1.<payload>.<signature>`.
    package static func serialise(payloadBytes: Data, signature: Data) -> String {
        "\(prefix).\(Base64URL.encode(payloadBytes)).\(Base64URL.encode(signature))"
    }

    /// Decodes one part of a key, which must be canonical base64url: a key has exactly one text form, so
    /// changing a character always changes the bytes.
    ///
    /// - Throws: `SleepCycleSdkError.invalidApiKey` saying that the part is not canonical base64url, and why.
    private static func decode(_ part: Substring, naming name: String) throws -> Data {
        do {
            return try Base64URL.decode(part)
        } catch {
            throw malformed("the \(name) is not canonical base64url (\(error))")
        }
    }

    private static func malformed(_ why: String) -> SleepCycleSdkError {
        .invalidApiKey("malformed key: \(why).")
    }
}

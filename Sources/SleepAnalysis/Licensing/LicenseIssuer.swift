import Foundation

/// Makes issuer key pairs and signs licence keys, for operators (`sleepanalysis license`) and tests.
public enum LicenseIssuer {
    /// Creates a fresh issuer key pair (`crypto_sign_keypair`).
    ///
    /// - Returns: The key pair.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` if libsodium fails.
    public static func generateKeyPair() throws -> LicenseKeyPair {
        let keys = try Sodium.generateSigningKeyPair()
        return LicenseKeyPair(publicKey: keys.publicKey, privateKey: keys.secretKey)
    }

    /// Reads a private key: base64 text of the 64-byte secret key (or its 32-byte seed).
    ///
    /// - Parameter text: The key file's contents.
    /// - Returns: The key pair it belongs to.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` if it is not such a key.
    public static func keyPair(privateKeyBase64 text: String) throws -> LicenseKeyPair {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Data(base64Encoded: trimmed) else {
            throw SleepCycleSdkError.invalidConfiguration("the private key is not base64 text")
        }
        switch bytes.count {
        case Sodium.secretKeyBytes:
            return LicenseKeyPair(publicKey: try Sodium.publicKey(ofSecretKey: bytes), privateKey: bytes)
        case Sodium.seedBytes:
            let keys = try Sodium.signingKeyPair(seed: bytes)
            return LicenseKeyPair(publicKey: keys.publicKey, privateKey: keys.secretKey)
        default:
            throw SleepCycleSdkError.invalidConfiguration(
                "the private key has \(bytes.count) bytes; expected a 64-byte Ed25519 secret key or a 32-byte seed")
        }
    }

    /// Signs a licence key.
    ///
    /// - Parameters:
    ///   - features: The features it grants.
    ///   - expires: When it stops being valid.
    ///   - subject: Who it is for.
    ///   - issuedAt: When it is issued (default now).
    ///   - modelStore: The model store base URL for slim mode, or nil.
    ///   - privateKey: The issuer's private key (64 bytes, or a 32-byte seed).
    /// - Returns: The key, `sa1.<payload>.<signature>`.
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` for a bad private key or model store URL.
    public static func issue(
        features: SleepAnalysisFeatures, expires: Date, subject: String, issuedAt: Date = Date(),
        modelStore: URL? = nil, privateKey: Data
    ) throws -> String {
        try issue(
            features: features, expires: expires, subject: subject, issuedAt: issuedAt, modelStore: modelStore,
            privateKey: privateKey, development: false)
    }

    /// Signs a licence key, a development licence when `development` is true (its payload says `"dev": true`).
    static func issue(
        features: SleepAnalysisFeatures, expires: Date, subject: String, issuedAt: Date = Date(),
        modelStore: URL? = nil, privateKey: Data, development: Bool
    ) throws -> String {
        let keyPair = try Self.keyPair(privateKeyBase64: privateKey.base64EncodedString())
        if let modelStore {
            guard let scheme = modelStore.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
                throw SleepCycleSdkError.invalidConfiguration(
                    "the model store must be an http(s):// or file:// URL, not '\(modelStore.absoluteString)'")
            }
        }
        let payload = LicensePayload(
            version: LicensePayload.currentVersion, issuer: try LicenseIssuerKeyID.of(keyPair.publicKey),
            subject: subject, features: features.enabledNames,
            issuedAt: Int64(issuedAt.timeIntervalSince1970.rounded(.down)),
            expiresAt: Int64(expires.timeIntervalSince1970.rounded(.down)), modelStore: modelStore?.absoluteString,
            development: development ? true : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payloadBytes = try encoder.encode(payload)
        let signature = try Sodium.sign(payloadBytes, secretKey: keyPair.privateKey)
        return LicenseKey.serialise(payloadBytes: payloadBytes, signature: signature)
    }
}

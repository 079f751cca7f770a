import Foundation

/// Verifies licence keys offline against trusted issuer public keys, with libsodium's
/// `crypto_sign_verify_detached`.
///
/// Trusted keys are those built into the library, those in `SLEEPANALYSIS_TRUSTED_KEYS` (comma-separated base64)
/// and those passed in. Each rejection says why: malformed, untrusted issuer, bad signature, unknown feature,
/// expired, or a development licence (`License.developmentKey(subject:validFor:)`), which only `initialize` in
/// the process that made it accepts.
public struct LicenseVerifier: Sendable {
    /// The environment variable that adds trusted issuer keys.
    public static let trustedKeysVariable = "SLEEPANALYSIS_TRUSTED_KEYS"

    /// Trusted public keys by key id.
    private var trustedKeys: [String: Data]
    /// Whether development licences of this process are accepted (only `SleepAnalyzer.initialize` accepts them).
    private var acceptsDevelopment = false

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - trustedIssuerKeys: Extra trusted Ed25519 public keys, base64 (32 bytes each).
    ///   - environment: Where `SLEEPANALYSIS_TRUSTED_KEYS` is read (default: the process environment).
    ///   - includeBuiltIn: Whether the keys built into the library are trusted (default true).
    /// - Throws: `SleepCycleSdkError.invalidConfiguration` naming a key that is not 32 bytes of base64.
    public init(
        trustedIssuerKeys: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment,
        includeBuiltIn: Bool = true
    ) throws {
        var keys: [String: Data] = [:]
        func add(_ text: Substring, origin: String) throws {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { return }
            guard let key = Data(base64Encoded: trimmed) ?? (try? Base64URL.decode(Substring(trimmed))),
                key.count == Sodium.publicKeyBytes
            else {
                throw SleepCycleSdkError.invalidConfiguration(
                    "the trusted issuer key '\(trimmed.prefix(60))' from \(origin) is not a base64 Ed25519 public "
                        + "key (32 bytes)")
            }
            keys[try LicenseIssuerKeyID.of(key)] = key
        }
        if includeBuiltIn {
            for key in BuiltInIssuers.publicKeys { try add(Substring(key), origin: "the built-in issuers") }
        }
        if let list = environment[Self.trustedKeysVariable] {
            for key in list.split(separator: ",") { try add(key, origin: Self.trustedKeysVariable) }
        }
        for key in trustedIssuerKeys { try add(Substring(key), origin: "trustedIssuerKeys") }
        self.trustedKeys = keys
    }

    /// The key ids of the trusted issuers.
    public var trustedKeyIds: Set<String> { Set(trustedKeys.keys) }

    /// Verifies a key and returns the licence it grants.
    ///
    /// - Parameters:
    ///   - apiKey: The key, `sa1.<payload>.<signature>`.
    ///   - now: The time against which expiry is checked (default now).
    /// - Returns: The verified licence.
    /// - Throws: `SleepCycleSdkError.invalidApiKey` saying whether the key is malformed, from an untrusted issuer,
    ///   altered (bad signature), naming unknown features, expired, or a development licence this verifier does
    ///   not accept.
    public func verify(_ apiKey: String, now: Date = Date()) throws -> License {
        let key = try LicenseKey(parsing: apiKey)
        try checkDevelopment(key.payload)
        guard let issuerKey = trustedKeys[key.payload.issuer] else {
            throw SleepCycleSdkError.invalidApiKey(
                "the key was issued by an untrusted issuer (key id \(key.payload.issuer.prefix(32))); add the issuer's "
                    + "public key to \(Self.trustedKeysVariable) or initialize(..., trustedIssuerKeys:).")
        }
        guard try Sodium.verify(signature: key.signature, message: key.payloadBytes, publicKey: issuerKey) else {
            throw SleepCycleSdkError.invalidApiKey(
                "the signature does not match the payload: the key was altered or corrupted.")
        }
        let license = try License(payload: key.payload)
        try Self.checkExpiry(license, now: now)
        return license
    }

    /// The same verifier, also accepting this process's development licences (`License.developmentKey`), for
    /// `SleepAnalyzer.initialize`.
    func acceptingDevelopment() -> LicenseVerifier {
        var copy = self
        copy.acceptsDevelopment = true
        if let id = DevelopmentIssuer.keyId, let pair = try? DevelopmentIssuer.keyPair.get() {
            copy.trustedKeys[id] = pair.publicKey
        }
        return copy
    }

    /// Rejects a development licence unless this verifier accepts them and it is this process's, and a licence
    /// of any other kind that claims this process's development issuer.
    ///
    /// - Throws: `SleepCycleSdkError.invalidApiKey` saying why.
    private func checkDevelopment(_ payload: LicensePayload) throws {
        let fromDevelopmentIssuer = DevelopmentIssuer.keyId == payload.issuer
        guard payload.development == true else {
            guard !fromDevelopmentIssuer else {
                throw SleepCycleSdkError.invalidApiKey(
                    "the key claims the development issuer without being a development licence.")
            }
            return
        }
        guard acceptsDevelopment else {
            throw SleepCycleSdkError.invalidApiKey(
                "a development licence is accepted only by initialize, in the process that made it; use a "
                    + "production key here.")
        }
        guard fromDevelopmentIssuer else {
            throw SleepCycleSdkError.invalidApiKey(
                "the development licence was made by another process; a development licence is valid only in the "
                    + "process that made it (License.developmentKey()).")
        }
        guard payload.expiresAt - payload.issuedAt <= Int64(License.maximumDevelopmentLifetime) else {
            throw SleepCycleSdkError.invalidApiKey("the development licence is valid for more than a day.")
        }
    }

    /// Whether licences from the issuer with this key id are trusted.
    func trusts(issuerKeyId: String) -> Bool { trustedKeys[issuerKeyId] != nil }

    /// Throws if `license` has expired at `now`.
    ///
    /// - Throws: `SleepCycleSdkError.invalidApiKey` with the expiry time.
    static func checkExpiry(_ license: License, now: Date) throws {
        guard !license.isExpired(at: now) else {
            throw SleepCycleSdkError.invalidApiKey(
                "the licence expired at \(license.expiresAt.formatted(.iso8601)); ask for a new key.")
        }
    }
}

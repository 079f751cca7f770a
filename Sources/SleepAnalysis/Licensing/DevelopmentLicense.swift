import Foundation

extension License {
    /// The longest a development licence is valid: one day.
    public static let maximumDevelopmentLifetime: TimeInterval = 86_400

    /// Makes a development licence key, for trying the library out and for tests, with no key to obtain and no
    /// issuer to configure.
    ///
    /// The key grants every feature. It is signed by an issuer key pair made in memory for this process, whose
    /// private key never leaves it, and only `initialize` in this process accepts it: another process, or
    /// ``LicenseVerifier`` (which checks keys for servers and tools), rejects it with
    /// ``SleepCycleSdkError/invalidApiKey(_:)``. It expires after `validFor`, at most a day. The verified licence
    /// says ``isDevelopment``, `initialize` logs a notice that it is in use, and its telemetry event says
    /// `development`. A product ships with a production key; see <doc:Licensing>.
    ///
    /// ```swift
    /// try await SleepCycleSdk.initialize(apiKey: License.developmentKey())
    /// ```
    ///
    /// - Parameters:
    ///   - subject: Who or what it is for (default `development`).
    ///   - validFor: How long it is valid from now, more than zero and at most
    ///     ``maximumDevelopmentLifetime`` (default 8 hours).
    /// - Returns: The key, `sa1.<payload>.<signature>`, for `initialize(apiKey:)`.
    /// - Throws: ``SleepCycleSdkError/invalidConfiguration(_:)`` for a `validFor` out of range, or if libsodium
    ///   cannot make the key pair.
    public static func developmentKey(
        subject: String = "development", validFor: TimeInterval = 8 * 3600
    ) throws
        -> String
    {
        guard validFor > 0, validFor <= maximumDevelopmentLifetime else {
            throw SleepCycleSdkError.invalidConfiguration(
                "a development licence is valid for more than 0 s and at most a day (86400 s), not \(validFor) s")
        }
        let issuer = try DevelopmentIssuer.keyPair.get()
        let now = Date()
        return try LicenseIssuer.issue(
            features: .all, expires: now.addingTimeInterval(validFor), subject: subject, issuedAt: now,
            privateKey: issuer.privateKey, development: true)
    }
}

/// The issuer of this process's development licences: a key pair made in memory on first use, whose private key
/// never leaves the process. Only `SleepAnalyzer.initialize` trusts it (`LicenseVerifier.acceptingDevelopment()`).
enum DevelopmentIssuer {
    /// The key pair, or why libsodium could not make it.
    static let keyPair: Result<LicenseKeyPair, any Error> = Result { try LicenseIssuer.generateKeyPair() }

    /// Its key id, or nil when no key pair could be made.
    static let keyId: String? = try? LicenseIssuerKeyID.of(keyPair.get().publicKey)
}

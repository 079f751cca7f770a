import Foundation

/// Turns an API key into a licence for `initialize`: reuses the cached verification unless a refresh is forced,
/// else verifies the key and caches the result.
struct LicenseAuthorizer: Sendable {
    /// Verifies keys.
    let verifier: LicenseVerifier
    /// Caches verified licences.
    let cache: LicenseTokenCache
    /// Logs what happens.
    let logger: SDKLogger

    /// The licence `apiKey` grants.
    ///
    /// A cached licence is reused only if its issuer is still trusted; its expiry is checked again on every use.
    ///
    /// - Parameters:
    ///   - apiKey: The key.
    ///   - forceRefresh: Verify again even if a cached licence exists.
    ///   - now: The current time (injectable for tests).
    /// - Returns: The licence.
    /// - Throws: `SleepCycleSdkError.invalidApiKey` for a rejected or expired key.
    func authorize(apiKey: String, forceRefresh: Bool, now: Date = Date()) throws -> License {
        if !forceRefresh, let cached = cache.cachedLicense(for: apiKey),
            verifier.trusts(issuerKeyId: cached.issuerKeyId)
        {
            do {
                try LicenseVerifier.checkExpiry(cached, now: now)
            } catch {
                cache.remove(for: apiKey)
                throw error
            }
            logger.debug("Using the cached licence for '\(cached.subject)' (features \(cached.features)).")
            return cached
        }
        let license = try verifier.verify(apiKey, now: now)
        do {
            try cache.store(license, for: apiKey, at: now)
        } catch {
            logger.warning("The verified licence could not be cached: \(error)")
        }
        logger.info(
            "Licence for '\(license.subject)' verified: features \(license.features), expires "
                + "\(license.expiresAt.formatted(.iso8601)).")
        return license
    }
}
